package io.paddlejobs.planning;

/** How the planner arrived at one number of the plan, so that users can see why. */
public record Derivation(String field, String value, String rule) {
}

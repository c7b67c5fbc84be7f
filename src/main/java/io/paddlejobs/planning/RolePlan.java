package io.paddlejobs.planning;

/** How many replicas of one role there are, what each one runs and what each one gets. */
public record RolePlan(Role role, int count, String entryPoint, Resources perReplica) {

    public Resources total() {
        return perReplica.times(count);
    }
}

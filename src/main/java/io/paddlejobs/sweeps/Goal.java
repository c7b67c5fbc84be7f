package io.paddlejobs.sweeps;

/** Which of two values of the objective is better: lower when it is minimized, higher when maximized. */
final class Goal {

    private Goal() {
    }

    static boolean better(SweepRequest.Objective objective, double candidate, double than) {
        return objective.maximize() ? candidate > than : candidate < than;
    }

    /** Higher is better: the value, or its negation when it is minimized. */
    static double score(SweepRequest.Objective objective, double value) {
        return objective.maximize() ? value : -value;
    }
}

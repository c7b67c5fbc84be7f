package io.paddlejobs.planning;

/**
 * The operator's part of planning: values used where a request is silent, and the ceilings a
 * request may not break.
 */
public record PlanningPolicy(Defaults defaults, Limits limits) {

    /** Values used where a request gives none. */
    public record Defaults(String image, String namespace, int numCpus, Memory memory,
                           int pserverCpu, Memory pserverMem, int port, int portsNum, int portsNumForSparse) {
    }

    /**
     * Per-job ceilings. Each names the configuration key that sets it, so that an error can tell
     * the user which knob an operator would have to turn.
     */
    public record Limits(int maxTrainers, int maxPservers, int maxGpus, int maxCpus, Memory maxMemory) {
    }
}

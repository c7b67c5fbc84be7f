package io.paddlejobs.planning;

import java.time.Duration;

/**
 * The operator's part of planning: values used where a request is silent, the ceilings a
 * request may not break, and what a GPU trainer needs at the least.
 */
public record PlanningPolicy(Defaults defaults, Limits limits, Gpu gpu, Collective collective) {

    /** A policy with no GPU or collective images of their own and no per-GPU floors. */
    public PlanningPolicy(Defaults defaults, Limits limits) {
        this(defaults, limits, Gpu.NONE);
    }

    /** A policy with no collective images of their own. */
    public PlanningPolicy(Defaults defaults, Limits limits, Gpu gpu) {
        this(defaults, limits, gpu, Collective.NONE);
    }

    public PlanningPolicy {
        gpu = gpu == null ? Gpu.NONE : gpu;
        collective = collective == null ? Collective.NONE : collective;
    }

    /**
     * The images of a collective job that names none: Paddle 3.x, where collective mode lives (the
     * default image is a Paddle 2.6 one, for parameter-server jobs, which Paddle 3.1 dropped).
     *
     * @param image    without GPUs; {@code null}: the default image
     * @param gpuImage with GPUs; {@code null}: the GPU image
     */
    public record Collective(String image, String gpuImage) {

        public static final Collective NONE = new Collective(null, null);
    }

    /** Values used where a request gives none. */
    public record Defaults(String image, int numCpus, Memory memory,
                           int pserverCpu, Memory pserverMem, int port, int portsNum, int portsNumForSparse) {
    }

    /**
     * Per-job ceilings. Each names the configuration key that sets it, so that an error can tell
     * the user which knob an operator would have to turn.
     */
    public record Limits(int maxTrainers, int maxPservers, int maxGpus, int maxCpus, Memory maxMemory, int maxRestarts,
                         Duration maxDebugHold) {

        /** The operator's default ceiling on {@code max_restarts}. */
        public static final int DEFAULT_MAX_RESTARTS = 10;
        /** The operator's default ceiling on {@code debug_hold}. */
        public static final Duration DEFAULT_MAX_DEBUG_HOLD = Duration.ofMinutes(30);

        public Limits(int maxTrainers, int maxPservers, int maxGpus, int maxCpus, Memory maxMemory) {
            this(maxTrainers, maxPservers, maxGpus, maxCpus, maxMemory, DEFAULT_MAX_RESTARTS);
        }

        public Limits(int maxTrainers, int maxPservers, int maxGpus, int maxCpus, Memory maxMemory, int maxRestarts) {
            this(maxTrainers, maxPservers, maxGpus, maxCpus, maxMemory, maxRestarts, DEFAULT_MAX_DEBUG_HOLD);
        }
    }

    /**
     * What a job that asks for GPUs gets where the request is silent: an image built with CUDA
     * (a CPU build cannot use the GPUs), and for each GPU of a trainer at least this much CPU and
     * memory (loading GPU Paddle and its CUDA context alone takes more than a beginner's even
     * share of {@code memory}, and a starved CPU leaves the GPU idle).
     *
     * @param image        {@code null}: the default image
     * @param cpuPerGpu    {@code null}: no floor
     * @param memoryPerGpu {@code null}: no floor
     */
    public record Gpu(String image, Cpu cpuPerGpu, Memory memoryPerGpu) {

        public static final Gpu NONE = new Gpu(null, null, null);
    }
}

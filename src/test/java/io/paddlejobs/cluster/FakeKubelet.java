package io.paddlejobs.cluster;

import java.util.Map;

/**
 * How a test steers what the fake nodes' pods do (the stages in kwok-stages.yaml): by labels on
 * the job request, which reach every pod, and by the image. Pservers always keep running.
 */
public final class FakeKubelet {

    /** An image no node can pull: the pods wait with ErrImagePull. */
    public static final String UNPULLABLE_IMAGE = "registry.invalid/unpullable:1";

    static final String EXIT_CODE_LABEL = "kwok.paddlejobs.test/exit-code";
    static final String TRAINER_LABEL = "kwok.paddlejobs.test/trainer";

    private FakeKubelet() {
    }

    /** Job labels that make every trainer run a moment, then exit with this code (0 is the default anyway). */
    public static Map<String, String> trainersExitWith(int code) {
        return Map.of(EXIT_CODE_LABEL, Integer.toString(code));
    }

    /** Job labels that keep the trainers running until they are stopped. */
    public static Map<String, String> trainersKeepRunning() {
        return Map.of(TRAINER_LABEL, "keep-running");
    }
}

package io.paddlejobs.planning;

import java.util.List;

/**
 * The numbers of a job before anyone is placed: counts and per-replica resources, with the
 * derivation of each, the warnings, and any contradictions found on the way.
 *
 * @param trainerSource the request fields the trainer count came from, for naming them in errors
 */
record Topology(
        int trainers,
        int pservers,
        Resources perTrainer,
        Resources perPserver,
        int devicesPerTrainer,
        boolean useGpu,
        List<String> trainerSource,
        List<Derivation> derivations,
        List<String> warnings,
        List<Violation> violations) {

    Resources total() {
        return perTrainer.times(trainers).plus(perPserver.times(pservers));
    }
}

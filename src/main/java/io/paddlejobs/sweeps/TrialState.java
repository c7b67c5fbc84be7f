package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobPhase;
import java.util.Map;
import java.util.TreeMap;

/**
 * One trial as its sweep keeps it: planned (its number, job name and parameters), whether it was
 * submitted, how its job stood when last looked at, its objective, and what the stopping rule decided.
 *
 * @param phase      its job's phase as last seen ({@code null} before it was submitted)
 * @param objective  its objective value as last seen, at {@code objectiveStep}; {@code null} before one
 * @param lastStep   the last step its objective was reported at; {@code null} before one
 * @param judgedStep the last step the median rule judged it at; {@code null} before it did
 * @param rungs      asha: its objective at each rung it reached (rung step to value), in the order reached
 * @param stopped    why the stopping rule stopped it; {@code null} while it was not
 */
record TrialState(int number, String job, Map<String, Object> parameters, boolean submitted, JobPhase phase,
                  String reason, String message, Double objective, Long objectiveStep, Long lastStep,
                  Long judgedStep, Map<Long, Double> rungs, String stopped) {

    /** The reason an early-stopped trial's job ends with (phase Cancelled): not a failure, not the program's end. */
    static final String EARLY_STOPPED = "EarlyStopped";

    TrialState {
        parameters = parameters == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(parameters));
        rungs = rungs == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(rungs));
    }

    static TrialState planned(int number, String job, Map<String, Object> parameters) {
        return new TrialState(number, job, parameters, false, null, null, null, null, null, null, null, Map.of(), null);
    }

    boolean finished() {
        return submitted && phase != null && phase.isFinished();
    }

    boolean unfinished() {
        return submitted && !finished();
    }

    boolean earlyStopped() {
        return stopped != null;
    }

    TrialState asSubmitted(JobPhase newPhase, String newReason, String newMessage) {
        return new TrialState(number, job, parameters, true, newPhase, newReason, newMessage, objective, objectiveStep,
                lastStep, judgedStep, rungs, stopped);
    }

    TrialState withObjective(Double value, Long step, Long last) {
        return new TrialState(number, job, parameters, submitted, phase, reason, message, value, step, last, judgedStep,
                rungs, stopped);
    }

    TrialState judged(Long step, Map<Long, Double> newRungs, String stoppedBecause) {
        return new TrialState(number, job, parameters, submitted, phase, reason, message, objective, objectiveStep,
                lastStep, step, newRungs, stoppedBecause);
    }
}

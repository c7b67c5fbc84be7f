package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobPhase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How a sweep stands, from its trials' states: its phase (the five words a job's phase has), reason,
 * message, warnings and best trial so far. Pure.
 */
final class SweepWords {

    /** The reason of a sweep whose next trial waits for a submission rate or the namespace's quota. */
    static final String WAITING = "WaitingToSubmit";
    static final String COMPLETED = "Completed";
    static final String NO_TRIAL_SUCCEEDED = "NoTrialSucceeded";

    private SweepWords() {
    }

    record Outcome(JobPhase phase, String reason, String message, List<String> warnings) {
    }

    /**
     * @param reported every metric name a trial reported so far (for the warning that names them when the
     *                 objective's is not among them)
     */
    static Outcome of(SweepRequest request, SweepState state, Set<String> reported) {
        List<TrialState> trials = state.trials();
        boolean anySubmitted = trials.stream().anyMatch(TrialState::submitted);
        boolean allFinished = trials.stream().allMatch(TrialState::finished);
        boolean anySucceeded = trials.stream().anyMatch(t -> t.finished() && t.phase() == JobPhase.SUCCEEDED);
        JobPhase phase = allFinished ? (anySucceeded ? JobPhase.SUCCEEDED : JobPhase.FAILED)
                : anySubmitted ? JobPhase.RUNNING : JobPhase.PENDING;
        String reason = allFinished ? (anySucceeded ? COMPLETED : NO_TRIAL_SUCCEEDED)
                : WAITING.equals(state.reason()) ? WAITING : null;
        String message = WAITING.equals(reason) ? state.message() : counts(trials) + best(request, state)
                .map(b -> "; best " + b.job() + " (" + request.objective().metric() + " "
                        + ParameterValues.text(b.objective()) + " at step " + b.objectiveStep() + ")").orElse("");
        return new Outcome(phase, reason, message, warnings(request, trials, reported));
    }

    /** The best trial so far by the objective: of those not stopped early, else of all that have a value. */
    static Optional<TrialState> best(SweepRequest request, SweepState state) {
        SweepRequest.Objective objective = request.objective();
        if (objective == null) {
            return Optional.empty();
        }
        Comparator<TrialState> better = Comparator.comparingDouble(t -> -Goal.score(objective, t.objective()));
        Optional<TrialState> kept = state.trials().stream().filter(t -> t.objective() != null && !t.earlyStopped())
                .min(better.thenComparingInt(TrialState::number));
        return kept.isPresent() ? kept : state.trials().stream().filter(t -> t.objective() != null)
                .min(better.thenComparingInt(TrialState::number));
    }

    static String counts(List<TrialState> trials) {
        long waiting = trials.stream().filter(t -> !t.submitted()).count();
        long pending = trials.stream().filter(t -> t.unfinished() && t.phase() == JobPhase.PENDING).count();
        long running = trials.stream().filter(t -> t.unfinished() && t.phase() != JobPhase.PENDING).count();
        long succeeded = trials.stream().filter(t -> t.finished() && t.phase() == JobPhase.SUCCEEDED).count();
        long stopped = trials.stream().filter(t -> t.finished() && t.earlyStopped()).count();
        long failed = trials.stream().filter(t -> t.finished() && t.phase() == JobPhase.FAILED).count();
        long cancelled = trials.stream().filter(t -> t.finished() && t.phase() == JobPhase.CANCELLED && !t.earlyStopped()).count();
        List<String> parts = new ArrayList<>();
        add(parts, waiting, "waiting");
        add(parts, pending, "pending");
        add(parts, running, "running");
        add(parts, succeeded, "succeeded");
        add(parts, stopped, "stopped early");
        add(parts, failed, "failed");
        add(parts, cancelled, "cancelled");
        return trials.size() + " trial" + (trials.size() == 1 ? "" : "s") + ": " + String.join(", ", parts);
    }

    private static void add(List<String> parts, long count, String word) {
        if (count > 0) {
            parts.add(count + " " + word);
        }
    }

    private static List<String> warnings(SweepRequest request, List<TrialState> trials, Set<String> reported) {
        if (request.objective() == null || trials.stream().noneMatch(TrialState::finished)
                || trials.stream().anyMatch(t -> t.objective() != null)) {
            return List.of();
        }
        String metric = request.objective().metric();
        return List.of(reported.isEmpty()
                ? "no trial has reported " + metric + ": none printed a PADDLEJOBS_METRICS line"
                : "no trial has reported " + metric + "; they reported " + String.join(", ", reported));
    }
}

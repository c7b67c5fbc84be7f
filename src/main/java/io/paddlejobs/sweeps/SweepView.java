package io.paddlejobs.sweeps;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobPhase;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** A sweep as {@code GET /sweeps/{name}} answers it: its request, how it stands, each trial, and the best so far. */
@Schema(name = "Sweep")
record SweepView(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String kind,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String name,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String namespace,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Pending until a trial was submitted, Running,"
                + " then Succeeded (every trial ended, one or more succeeded), Failed (none succeeded) or Cancelled") JobPhase phase,
        @Schema(description = "Completed, NoTrialSucceeded, or WaitingToSubmit while its next trial waits for the"
                + " namespace's quota or the owner's submission rate") String reason,
        @Schema(description = "How many trials stand how, and the best so far; or why the next trial waits") String message,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Instant createdAt,
        Instant finishedAt,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "This sweep's URL") String statusUrl,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Its trials compared, as a page") String compareUrl,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The request as planned (name and seed filled in)")
        SweepRequest request,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<TrialView> trials,
        @Schema(description = "The best trial so far by the objective (of those not stopped early, where any has a value)")
        TrialView best,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<String> warnings,
        @Schema(description = "The service replica that drives it now") String driver) {

    static final String KIND = "Sweep";

    /** @param live a trial's job as this replica runs it now, fresher than the sweep's last look */
    static SweepView of(SweepRecord sweep, SweepUrls urls, Function<TrialState, Optional<Job>> live) {
        List<TrialView> trials = new ArrayList<>();
        for (TrialState trial : sweep.state().trials()) {
            TrialState now = live.apply(trial).map(job -> trial.asSubmitted(job.status().phase(),
                    trial.earlyStopped() ? TrialState.EARLY_STOPPED : job.status().reason(),
                    trial.earlyStopped() ? trial.stopped() : job.status().message())).orElse(trial);
            trials.add(TrialView.of(now, sweep.namespace(), urls));
        }
        TrialView best = SweepWords.best(sweep.request(), sweep.state())
                .map(trial -> trials.get(trial.number() - 1)).orElse(null);
        List<String> warnings = new ArrayList<>(sweep.state().notes());
        warnings.addAll(sweep.state().warnings());
        return new SweepView(KIND, sweep.name(), sweep.namespace(), sweep.phase(), sweep.state().reason(),
                sweep.state().message(), sweep.createdAt(), sweep.finishedAt(), urls.sweep(sweep.namespace(), sweep.name()),
                urls.compare(sweep.namespace(), sweep.name()), sweep.request(), trials, best, warnings, sweep.driver());
    }

    @Schema(name = "SweepTrial", description = "One trial: an ordinary job, named <sweep>-t<number>")
    record TrialView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED) int number,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Its job's name") String name,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Each parameter's value in it",
                    additionalProperties = Schema.AdditionalPropertiesValue.TRUE)
            Map<String, Object> parameters,
            @Schema(description = "Its job's phase; absent while it waits to be submitted") JobPhase phase,
            @Schema(description = "Its job's reason; EarlyStopped (phase Cancelled) when the stopping rule stopped it,"
                    + " NotSubmitted when the service refused it") String reason,
            String message,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Its job's status URL") String statusUrl,
            @Schema(description = "Its objective value, at the last step or its best (objective.at)") Double objective,
            @Schema(description = "The step of that value") Long objectiveStep,
            @Schema(description = "The last step it reported the objective at") Long lastStep,
            @Schema(description = "median: the last step the rule judged it at") Long judgedStep,
            @Schema(description = "asha: its objective at each rung it reached, by step") Map<Long, Double> rungs) {

        static TrialView of(TrialState trial, String namespace, SweepUrls urls) {
            return new TrialView(trial.number(), trial.job(), trial.parameters(), trial.submitted() ? trial.phase() : null,
                    trial.reason(), trial.message(), urls.job(namespace, trial.job()), trial.objective(),
                    trial.objectiveStep(), trial.lastStep(), trial.judgedStep(), trial.rungs().isEmpty() ? null : trial.rungs());
        }
    }
}

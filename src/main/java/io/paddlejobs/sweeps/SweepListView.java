package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobPhase;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/** {@code GET /sweeps}: the namespace's sweeps, newest first. */
@Schema(name = "SweepList")
record SweepListView(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<Item> items) {

    @Schema(name = "SweepSummary")
    record Item(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String name,
                @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String namespace,
                @Schema(requiredMode = Schema.RequiredMode.REQUIRED) JobPhase phase,
                String reason,
                String message,
                @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Instant createdAt,
                Instant finishedAt,
                @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "How many trials it has") int trials,
                @Schema(description = "The best trial's job name so far") String best,
                @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String statusUrl) {

        static Item of(SweepRecord sweep, SweepUrls urls) {
            return new Item(sweep.name(), sweep.namespace(), sweep.phase(), sweep.state().reason(), sweep.state().message(),
                    sweep.createdAt(), sweep.finishedAt(), sweep.state().trials().size(),
                    SweepWords.best(sweep.request(), sweep.state()).map(TrialState::job).orElse(null),
                    urls.sweep(sweep.namespace(), sweep.name()));
        }
    }
}

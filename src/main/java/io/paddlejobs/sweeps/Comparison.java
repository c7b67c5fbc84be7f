package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobPhase;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Runs side by side ({@code GET /compare}): each run's parameters and metrics summed up, and their
 * requests field by field, those that differ marked. The curves themselves are each job's
 * {@code GET /jobs/{name}/metrics}.
 *
 * @param sweep     the sweep compared, when one was asked for
 * @param objective its objective, when it has one: each run's {@code best} is by it
 * @param metrics   every metric any run reported, by name
 * @param requests  every request field any run set, flattened ({@code env.LR}), in order
 */
@Schema(name = "Comparison")
record Comparison(
        String sweep,
        SweepRequest.Objective objective,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<String> parameters,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<Run> runs,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<String> metrics,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<Field> requests) {

    /**
     * @param parameters a sweep's trial: its parameters; any other run: the request fields in which the runs differ
     * @param metrics    each reported metric's summary, by name
     */
    @Schema(name = "ComparedRun")
    record Run(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String name,
               @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String namespace,
               @Schema(requiredMode = Schema.RequiredMode.REQUIRED) JobPhase phase,
               String reason,
               @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String statusUrl,
               Instant createdAt,
               Instant startedAt,
               Instant finishedAt,
               @Schema(requiredMode = Schema.RequiredMode.REQUIRED, additionalProperties = Schema.AdditionalPropertiesValue.TRUE,
                       description = "each value a number or a string as the run was given it") Map<String, Object> parameters,
               @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Map<String, Summary> metrics) {
    }

    /**
     * One metric of one run (its first reporting trainer's series): its last value and step, its lowest and
     * highest, and its best by the sweep's objective where it is the objective's metric.
     */
    @Schema(name = "MetricSummary")
    record Summary(double last, long lastStep, double min, double max, Double best) {
    }

    /** One request field across the runs, in run order ({@code null} where a run leaves it out). */
    @Schema(name = "ComparedField")
    record Field(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String field,
                 @ArraySchema(arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED,
                         description = "Its value in each run, in run order; null where the run leaves it out"),
                         schema = @Schema(types = {"string", "null"})) List<String> values,
                 @Schema(requiredMode = Schema.RequiredMode.REQUIRED) boolean differs) {
    }
}

package io.paddlejobs.sweeps;

import io.paddlejobs.planning.DnsLabels;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;

/**
 * A sweep as users write it: a job request as template, the settings that vary, how trials are chosen,
 * what makes one better than another, and when a trial is stopped early. Each field's own rule is
 * checked here; rules across fields, and the trials themselves, are {@link SweepPlanner}'s.
 */
@Schema(name = "SweepRequest", description = "Trials of one job request over a space of settings. Required: template and parameters.")
public record SweepRequest(
        @Schema(description = "DNS-1035 label, 1.." + MAX_NAME_LENGTH + " characters; trials are named <name>-t1, -t2, ...;"
                + " generated (sweep-xxxxx) when omitted", example = "lr-grid")
        @Size(min = 1, max = MAX_NAME_LENGTH) @Pattern(regexp = DnsLabels.JOB_NAME, message = DnsLabels.JOB_NAME_MESSAGE)
        String name,
        @Schema(ref = "#/components/schemas/JobRequest", requiredMode = Schema.RequiredMode.REQUIRED,
                description = "The job request every trial starts from (no name, no notify), checked as POST /jobs checks one")
        @NotNull Map<String, Object> template,
        @ArraySchema(arraySchema = @Schema(description = "The settings that vary, 1.." + MAX_PARAMETERS),
                schema = @Schema(implementation = Parameter.class))
        @NotNull @Size(min = 1, max = MAX_PARAMETERS) List<@NotNull @Valid Parameter> parameters,
        @Schema(description = "grid (default): every combination, the first parameter varying slowest; random: draws"
                + " with seed", allowableValues = {"grid", "random"}, example = "grid")
        @Pattern(regexp = "grid|random", message = "must be grid or random") String search,
        @Schema(description = "The random search's seed: the same seed draws the same trials; chosen and shown when omitted")
        @Min(0) @Max(Integer.MAX_VALUE) Long seed,
        @Schema(description = "How many trials at most, 1.." + MAX_TRIALS + "; a grid's size when omitted; required for a"
                + " random search over a range without a step", example = "6")
        @Min(1) @Max(MAX_TRIALS) Integer maxTrials,
        @Schema(description = "How many trials may be unfinished at once (1 by default); at most what the namespace's"
                + " limits leave", example = "2")
        @Min(1) @Max(MAX_PARALLEL) Integer parallel,
        @Schema(description = "What makes a trial better: a metric the trainers report (PADDLEJOBS_METRICS)")
        @Valid Objective objective,
        @Schema(description = "When a trial is stopped before its end (needs an objective)")
        @Valid EarlyStopping earlyStopping) {

    /** Room for {@code -t1000} after the name, within a job name's 40 characters. */
    public static final int MAX_NAME_LENGTH = 34;
    public static final int MAX_PARAMETERS = 10;
    public static final int MAX_TRIALS = 1000;
    public static final int MAX_PARALLEL = 100;
    static final String METRIC_NAME = "[A-Za-z_][A-Za-z0-9_.]{0,63}";

    public SweepRequest {
        template = template == null ? null : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(template));
        parameters = parameters == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(parameters));
    }

    /** The request with its generated name and seed, as it is kept: the same trials whoever plans it again. */
    SweepRequest resolved(String newName, Long newSeed) {
        return new SweepRequest(newName, template, parameters, search, newSeed, maxTrials, parallel, objective,
                earlyStopping);
    }

    boolean random() {
        return "random".equals(search);
    }

    int parallelOrDefault() {
        return parallel == null ? 1 : parallel;
    }

    /**
     * One setting that varies: where it goes (exactly one of env, arg, field) and what it takes (values, or
     * a range from min to max).
     */
    @Schema(name = "SweepParameter", description = "A setting that varies: one of env, arg, field; values, or min and max")
    public record Parameter(
            @Schema(description = "Its name in the sweep's status, the trials' labels and the compare table",
                    example = "lr", requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Pattern(regexp = "[a-z]([a-z0-9_]{0,28}[a-z0-9])?", message = "must be 1..30 lower-case letters,"
                    + " digits or _, from a letter to a letter or digit (it is a label's name)") String name,
            @Schema(description = "An environment variable of every replica, set to the value", example = "LEARNING_RATE")
            @Size(max = 256) @Pattern(regexp = "[A-Za-z_][A-Za-z0-9_]*", message = "must be an environment variable name")
            String env,
            @Schema(description = "An option written after the entry point with the value, as --lr 0.01 (shell-quoted)",
                    example = "--lr")
            @Pattern(regexp = "--?[A-Za-z0-9][A-Za-z0-9_.-]{0,62}", message = "must be an option such as --lr or -n")
            String arg,
            @Schema(description = "A resource field of the request, set to the value", allowableValues = {"num_gpus",
                    "num_cpus", "memory", "trainers", "trainer_cpu", "trainer_gpu", "trainer_mem", "pservers",
                    "pserver_cpu", "pserver_mem"})
            @Pattern(regexp = RESOURCE_FIELDS, message = "must be one of num_gpus, num_cpus, memory, trainers,"
                    + " trainer_cpu, trainer_gpu, trainer_mem, pservers, pserver_cpu, pserver_mem") String field,
            @ArraySchema(arraySchema = @Schema(description = "The values it takes, 1.." + MAX_TRIALS + ": strings or numbers"),
                    schema = @Schema(anyOf = {String.class, Double.class}))
            @Size(min = 1, max = MAX_TRIALS) List<Object> values,
            @Schema(description = "A range's low end (with max)", example = "0.0001") Double min,
            @Schema(description = "A range's high end, included (with min)", example = "0.1") Double max,
            @Schema(description = "A range's step: min, min+step, ... up to max (a grid needs one)", example = "0.01")
            Double step,
            @Schema(description = "linear (default) or log: a random draw uniform in the logarithm (min above 0)",
                    allowableValues = {"linear", "log"})
            @Pattern(regexp = "linear|log", message = "must be linear or log") String scale,
            @Schema(description = "A random range draws whole numbers (a stepped range's values are whole when its min"
                    + " and step are)")
            Boolean integer) {

        static final String RESOURCE_FIELDS = "num_gpus|num_cpus|memory|trainers|trainer_cpu|trainer_gpu|trainer_mem"
                + "|pservers|pserver_cpu|pserver_mem";

        public Parameter {
            values = values == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
        }

        boolean isRange() {
            return values == null;
        }

        boolean logScale() {
            return "log".equals(scale);
        }
    }

    @Schema(name = "SweepObjective", description = "The metric that ranks trials")
    public record Objective(
            @Schema(description = "A metric the trainers report", example = "loss", requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Pattern(regexp = METRIC_NAME, message = "must be a metric name: a letter or _, then letters, digits,"
                    + " _ or ., at most 64 characters") String metric,
            @Schema(description = "minimize (default) or maximize", allowableValues = {"minimize", "maximize"})
            @Pattern(regexp = "minimize|maximize", message = "must be minimize or maximize") String goal,
            @Schema(description = "A trial's value: at its last reported step (default) or its best",
                    allowableValues = {"last", "best"})
            @Pattern(regexp = "last|best", message = "must be last or best") String at) {

        boolean maximize() {
            return "maximize".equals(goal);
        }

        boolean atBest() {
            return "best".equals(at);
        }
    }

    @Schema(name = "SweepEarlyStopping", description = "median: stop a trial whose best so far is worse than the median of"
            + " the others' running averages at the same step; asha: asynchronous successive halving over steps")
    public record EarlyStopping(
            @Schema(allowableValues = {"median", "asha"}, requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Pattern(regexp = "median|asha", message = "must be median or asha") String rule,
            @Schema(description = "median: no trial is judged before this step (0 by default); asha: the first rung"
                    + " (required)", example = "5")
            @Min(0) @Max(MAX_STEP) Long minStep,
            @Schema(description = "median: how many other trials must have reached the step (3 by default)", example = "3")
            @Min(1) @Max(MAX_TRIALS) Integer minTrials,
            @Schema(description = "asha: a full trial's steps, the budget the rungs divide (required)", example = "81")
            @Min(1) @Max(MAX_STEP) Long maxStep,
            @Schema(description = "asha: rungs at min_step times this to the power 0, 1, 2, ... below max_step; the best"
                    + " 1/reduction_factor at a rung go on (3 by default)", example = "3")
            @Min(2) @Max(10) Integer reductionFactor) {

        static final long MAX_STEP = 1_000_000_000L;

        boolean asha() {
            return "asha".equals(rule);
        }
    }
}

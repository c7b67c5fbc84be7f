package io.paddlejobs.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One report from a trainer, as it prints it: {@code PADDLEJOBS_METRICS {"step": 3, "loss": 0.35}}.
 * The marker, one space, then a JSON object on the same line with an integer {@code step >= 0} and
 * one or more numbers keyed by metric name, or {@code total_steps} (an integer >= 1: how many
 * steps the trainer will take in all, from which the job's progress is told), or both.
 *
 * @param totalSteps the line's {@code total_steps}; {@code null} when it gave none
 * @param values     metric name to value, in the order the line gave them; only finite numbers
 */
public record MetricLine(long step, Long totalSteps, Map<String, Double> values) {

    static final String TOTAL_STEPS = "total_steps";

    /** What makes text look like a report, wherever it stands on a line; a report is the word, a space, the JSON. */
    static final String WORD = "PADDLEJOBS_METRICS";
    public static final String MARKER = WORD + " ";
    static final int MAX_NAME_LENGTH = 64;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
    // Python's json.dumps writes NaN and Infinity for a diverging loss; they are read, then left out.
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    public MetricLine {
        values = Map.copyOf(values);
    }

    /** A report of values alone. */
    public MetricLine(long step, Map<String, Double> values) {
        this(step, null, values);
    }

    /** Whether text is meant as a report (it may still be a malformed one): it starts with the marker word. */
    static boolean isReport(String line) {
        return line.startsWith(WORD);
    }

    /**
     * The report on this line; empty when the line is not one, or breaks the format (then nothing
     * of it is taken: a misspelt name or a string value should be noticed, not half-charted).
     */
    static Optional<MetricLine> parse(String line) {
        if (!line.startsWith(MARKER)) {
            return Optional.empty();
        }
        JsonNode object;
        try {
            object = JSON.readTree(line.substring(MARKER.length()));
        } catch (JacksonException e) {
            return Optional.empty();
        }
        if (object == null || !object.isObject()) {
            return Optional.empty();
        }
        JsonNode step = object.get("step");
        if (step == null || !step.isIntegralNumber() || !step.canConvertToLong() || step.longValue() < 0) {
            return Optional.empty();
        }
        JsonNode total = object.get(TOTAL_STEPS);
        if (total != null && (!total.isIntegralNumber() || !total.canConvertToLong() || total.longValue() < 1)) {
            return Optional.empty();
        }
        Map<String, Double> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : object.properties()) {
            String name = entry.getKey();
            if (name.equals("step") || name.equals(TOTAL_STEPS)) {
                continue;
            }
            if (name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches() || !entry.getValue().isNumber()) {
                return Optional.empty();
            }
            double value = entry.getValue().doubleValue();
            if (Double.isFinite(value)) {
                values.put(name, value);
            }
        }
        Long totalSteps = total == null ? null : total.longValue();
        return values.isEmpty() && totalSteps == null ? Optional.empty()
                : Optional.of(new MetricLine(step.longValue(), totalSteps, values));
    }
}

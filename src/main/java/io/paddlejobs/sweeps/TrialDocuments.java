package io.paddlejobs.sweeps;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A trial's request document: the template with the trial's name, its labels, and each parameter's value
 * where it goes (an environment variable, an option after the entry point, a resource field).
 */
final class TrialDocuments {

    /** The label keys of a trial: not reserved, so that a trial can be run again as any job can. */
    static final String LABEL_PREFIX = "sweep.paddlejobs.io/";
    static final String SWEEP_LABEL = LABEL_PREFIX + "sweep";
    static final String TRIAL_LABEL = LABEL_PREFIX + "trial";

    private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]");
    private static final Pattern SHELL_WORD = Pattern.compile("[A-Za-z0-9._/:=+,@%-]+");

    private TrialDocuments() {
    }

    static String jobName(String sweep, int number) {
        return sweep + "-t" + number;
    }

    static Map<String, Object> of(Map<String, Object> template, String sweep, int number,
                                  List<SweepRequest.Parameter> parameters, Map<String, Object> assignment) {
        Map<String, Object> document = new LinkedHashMap<>(template);
        document.put("name", jobName(sweep, number));
        Map<String, Object> labels = copy(template.get("labels"));
        labels.put(SWEEP_LABEL, sweep);
        labels.put(TRIAL_LABEL, String.valueOf(number));
        for (SweepRequest.Parameter parameter : parameters) {
            Object value = assignment.get(parameter.name());
            String text = ParameterValues.text(value);
            if (parameter.env() != null) {
                Map<String, Object> env = copy(document.get("env"));
                env.put(parameter.env(), text);
                document.put("env", env);
            } else if (parameter.arg() != null) {
                document.put("entry_point", document.get("entry_point") + " " + parameter.arg() + " " + shellWord(text));
            } else {
                document.put(parameter.field(), value);
            }
            if (LABEL_VALUE.matcher(text).matches()) {
                labels.put(LABEL_PREFIX + parameter.name(), text);
            }
        }
        document.put("labels", labels);
        return document;
    }

    /** The text as one shell word: as it is when it is plain, else single-quoted. */
    static String shellWord(String text) {
        return SHELL_WORD.matcher(text).matches() ? text : "'" + text.replace("'", "'\\''") + "'";
    }

    /** A copy of an object field of the template (its env, its labels); anything else is left for the reading to refuse. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Object field) {
        return field instanceof Map<?, ?> map ? new LinkedHashMap<>((Map<String, Object>) map) : new LinkedHashMap<>();
    }
}

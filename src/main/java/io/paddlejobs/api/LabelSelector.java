package io.paddlejobs.api;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses the equality-only label selector of a list query: {@code team=nlp,stage=dev}. */
public final class LabelSelector {

    /**
     * What {@link #parse} accepts, for the contract: blank, or terms with a key before their first
     * '=' ({@code String.split} drops trailing empty terms, so trailing commas are let through).
     */
    static final String SYNTAX = "\\s*|,+|[^,=][^,=]*=[^,]*(,[^,=][^,=]*=[^,]*)*,*";

    private LabelSelector() {
    }

    public static Map<String, String> parse(String selector) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (selector == null || selector.isBlank()) {
            return labels;
        }
        for (String term : selector.split(",")) {
            int eq = term.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("label_selector must be key=value[,key=value], not '" + selector + "'");
            }
            labels.put(term.substring(0, eq).strip(), term.substring(eq + 1).strip());
        }
        return labels;
    }
}

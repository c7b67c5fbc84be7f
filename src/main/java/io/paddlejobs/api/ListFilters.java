package io.paddlejobs.api;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobQuery;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The filters {@code GET /jobs} and its watch share, from their query parameters; one that does not
 * parse is a 400 naming it.
 */
public record ListFilters(JobPhase phase, Map<String, String> labels, Instant createdSince, Instant createdBefore) {

    /** The filters' query parameters: one set for the list and its stream (the contract has one). */
    static final String PHASE = "phase";
    static final String LABEL_SELECTOR = "label_selector";
    static final String CREATED_SINCE = "created_since";
    static final String CREATED_BEFORE = "created_before";
    /** What the time parameters take, in the contract and in their errors. */
    /** An offset of 18:01 to 23:59, which RFC 3339 allows and java.time's ZoneOffset does not hold. */
    private static final Pattern LARGE_OFFSET =
            Pattern.compile("(.+[0-9])([+-])(1[89]|2[0-3]):([0-5][0-9])");

    public static final String TIME_SYNTAX = "an RFC 3339 time with its zone, such as 2026-12-01T12:00:00Z";

    /** An empty range (since at or after before) is no error: it matches no job, as any filter may. */
    public static ListFilters parse(String phase, String labelSelector, String createdSince, String createdBefore) {
        return new ListFilters(phase == null ? null : InvalidParameterException.parse(PHASE, phase, JobPhase::parse),
                InvalidParameterException.parse(LABEL_SELECTOR, labelSelector, LabelSelector::parse),
                time(CREATED_SINCE, createdSince), time(CREATED_BEFORE, createdBefore));
    }

    public JobQuery query(String namespace, int limit, String continueToken) {
        return new JobQuery(namespace, phase, labels, createdSince, createdBefore, limit, continueToken);
    }

    private static Instant time(String parameter, String value) {
        if (value == null) {
            return null;
        }
        return InvalidParameterException.parse(parameter, value, text -> {
            try {
                // RFC 3339 lets the T and Z be lower case, and gives any offset; ISO_INSTANT takes both once upper-cased,
                // but no offset past java.time's 18 hours: those (up to 23:59, as RFC 3339 allows) are applied here.
                String upper = text.toUpperCase(Locale.ROOT);
                Matcher offset = LARGE_OFFSET.matcher(upper);
                if (offset.matches()) {
                    long seconds = Integer.parseInt(offset.group(3)) * 3600L + Integer.parseInt(offset.group(4)) * 60L;
                    Instant local = LocalDateTime.parse(offset.group(1)).toInstant(ZoneOffset.UTC);
                    return offset.group(2).equals("+") ? local.minusSeconds(seconds) : local.plusSeconds(seconds);
                }
                return DateTimeFormatter.ISO_INSTANT.parse(upper, Instant::from);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(parameter + " must be " + TIME_SYNTAX + ", not '" + text + "'");
            }
        });
    }
}

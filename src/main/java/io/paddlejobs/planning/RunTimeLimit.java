package io.paddlejobs.planning;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request's {@code max_run_time}: how long a job's trainers may run before they are stopped
 * and the job fails, written as people write it: {@code 90m}, {@code 2h}, {@code 1h30m},
 * {@code 1d}, {@code 45s}.
 */
public final class RunTimeLimit {

    public static final String SYNTAX = "([0-9]{1,6}d)?([0-9]{1,6}h)?([0-9]{1,6}m)?([0-9]{1,9}s)?";
    private static final Pattern PARTS = Pattern.compile(SYNTAX);

    private RunTimeLimit() {
    }

    /** @throws IllegalArgumentException when the text is not such a duration, or is zero */
    public static Duration parse(String text) {
        Matcher m = text == null ? null : PARTS.matcher(text);
        if (m == null || text.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration such as 90m, 2h or 1h30m");
        }
        Duration duration = Duration.ofDays(part(m, 1)).plusHours(part(m, 2)).plusMinutes(part(m, 3))
                .plusSeconds(part(m, 4));
        if (duration.isZero()) {
            throw new IllegalArgumentException("max_run_time must be longer than 0");
        }
        return duration;
    }

    /** Seconds, which {@link #parse} reads back to the same duration. */
    public static String format(Duration duration) {
        return duration.toSeconds() + "s";
    }

    private static long part(Matcher m, int group) {
        String value = m.group(group);
        return value == null ? 0 : Long.parseLong(value.substring(0, value.length() - 1));
    }
}

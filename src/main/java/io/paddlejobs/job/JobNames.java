package io.paddlejobs.job;

import java.security.SecureRandom;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Names the service gives jobs: {@code job-} and five random characters for a job submitted
 * without one, and {@code <name>-2}, {@code -3}, ... for a job run again.
 */
final class JobNames {

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The longest job name (api's JobRequestBody.MAX_NAME_LENGTH, which job/ cannot see). */
    private static final int MAX_LENGTH = 40;
    private static final Pattern RUN_NUMBER = Pattern.compile("-[0-9]+$");

    private JobNames() {
    }

    static String generate() {
        StringBuilder name = new StringBuilder("job-");
        for (int i = 0; i < 5; i++) {
            name.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return name.toString();
    }

    /**
     * The first of {@code <base>-2}, {@code <base>-3}, ... that {@code taken} does not hold. The base
     * is the name without a trailing {@code -N}, so that running {@code train-2} again gives
     * {@code train-3}, not {@code train-2-2}; it is shortened where the number would not fit.
     */
    static String rerun(String name, Predicate<String> taken) {
        String base = RUN_NUMBER.matcher(name).replaceFirst("");
        for (int run = 2; ; run++) {
            String suffix = "-" + run;
            String stem = base.length() + suffix.length() <= MAX_LENGTH
                    ? base : base.substring(0, MAX_LENGTH - suffix.length()).replaceAll("-+$", "");
            String candidate = stem + suffix;
            if (!taken.test(candidate)) {
                return candidate;
            }
        }
    }
}

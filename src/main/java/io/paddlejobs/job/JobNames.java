package io.paddlejobs.job;

import java.security.SecureRandom;

/** Names for jobs submitted without one: {@code job-} and five random characters, a valid DNS label. */
final class JobNames {

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private JobNames() {
    }

    static String generate() {
        StringBuilder name = new StringBuilder("job-");
        for (int i = 0; i < 5; i++) {
            name.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return name.toString();
    }
}

package io.paddlejobs.api;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The known field an unknown one was most likely meant to be: {@code num_gpu} for {@code num_gpus},
 * {@code num_cpus} for {@code numCpus}. Names are compared in snake_case, by edit distance (a
 * transposition counts once); a suggestion must be within {@link #MAX_DISTANCE} edits and closer than
 * any other, so that a name unlike every field gets none rather than a guess.
 */
final class FieldSuggestions {

    static final int MAX_DISTANCE = 2;

    private FieldSuggestions() {
    }

    static Optional<String> closest(String unknown, Collection<?> known) {
        String wanted = snakeCase(unknown);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        boolean tie = false;
        for (Object candidate : known) {
            String name = String.valueOf(candidate);
            int distance = distance(wanted, name);
            if (distance < bestDistance) {
                best = name;
                bestDistance = distance;
                tie = false;
            } else if (distance == bestDistance) {
                tie = true;
            }
        }
        boolean close = bestDistance <= Math.min(MAX_DISTANCE, Math.max(1, wanted.length() / 3));
        return best != null && close && !tie ? Optional.of(best) : Optional.empty();
    }

    static String snakeCase(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('-', '_').toLowerCase(Locale.ROOT);
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}

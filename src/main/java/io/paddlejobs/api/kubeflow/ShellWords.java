package io.paddlejobs.api.kubeflow;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A container's {@code command} and {@code args} as one shell command line (an entry point here runs under
 * {@code sh -c}): each word single-quoted unless plain, and Kubernetes' {@code $(NAME)} references kept
 * as references ({@code "${NAME}"}), {@code $$} as a literal {@code $}. One difference stays: Kubernetes
 * leaves a reference to a variable it does not define as it is, the shell makes it empty.
 */
final class ShellWords {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:,+@%-]+");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\$|\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private ShellWords() {
    }

    static String join(List<String> words) {
        return words.stream().map(ShellWords::word).collect(Collectors.joining(" "));
    }

    private static String word(String word) {
        if (PLAIN.matcher(word).matches()) {
            return word;
        }
        StringBuilder quoted = new StringBuilder();
        Matcher m = REFERENCE.matcher(word);
        int from = 0;
        while (m.find()) {
            quoted.append(literal(word.substring(from, m.start())));
            quoted.append(m.group(1) == null ? "'$'" : "\"${" + m.group(1) + "}\"");
            from = m.end();
        }
        quoted.append(literal(word.substring(from)));
        return quoted.isEmpty() ? "''" : quoted.toString();
    }

    private static String literal(String text) {
        return text.isEmpty() ? "" : "'" + text.replace("'", "'\\''") + "'";
    }
}

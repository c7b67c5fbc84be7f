package io.paddlejobs.backend.kubernetes.manifest.step;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The shell command a replica's container runs. A single command is {@code exec}'d, so that the
 * program itself, not a shell in between, gets the SIGTERM of a cancel or a scale-down (a dash
 * or busybox {@code sh} waiting on its child does not pass it on). A command line with shell
 * syntax (lists, pipes, groups, assignments, keywords) is left as it is: the user can end it
 * with {@code exec} to get the same.
 */
public final class EntryPoints {

    /** Characters that make a command line more than one simple command. */
    private static final Pattern COMPOUND = Pattern.compile("[;&|\\n\\r()`{}]");
    private static final Set<String> NOT_A_PROGRAM = Set.of("if", "then", "for", "while", "until", "case", "exec",
            "cd", "export", "set", "source", ".", "!", "time", "eval", "trap", "ulimit", "umask", "[[", "function");

    private EntryPoints() {
    }

    public static String command(String entryPoint) {
        String trimmed = entryPoint.strip();
        String first = trimmed.split("\\s+", 2)[0];
        if (trimmed.isEmpty() || COMPOUND.matcher(trimmed).find() || first.contains("=") || NOT_A_PROGRAM.contains(first)) {
            return entryPoint;
        }
        return "exec " + trimmed;
    }
}

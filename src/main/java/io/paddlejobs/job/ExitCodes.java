package io.paddlejobs.job;

import io.paddlejobs.planning.RestartOn;

/**
 * What a replica's exit code means, in words a user can act on: the one wording of every backend,
 * so that the same exit reads the same wherever the job ran. The words follow the replica's id in
 * a job's message ({@code trainer-1 killed by signal 9 (...)}).
 */
public final class ExitCodes {

    /** What the container runtime reports for a kill by the kernel's out-of-memory killer. */
    public static final String OUT_OF_MEMORY = "OOMKilled";

    private ExitCodes() {
    }

    /** {@code code} as a shell reports it: 128 + n when the process was killed by signal n. */
    public static String describe(int code) {
        if (code > 128 && code < 160) {
            return "killed by signal " + (code - 128) + " (" + signalMeaning(code - 128) + ")";
        }
        return "exited with code " + code + switch (code) {
            case 0 -> " (finished successfully)";
            case 1 -> " (the program reported an error; see its log)";
            case 2 -> " (a usage error: Python exits 2 when it cannot open its script, a shell on a syntax error"
                    + " in entry_point; the log says which)";
            case 126 -> " (the command is not executable)";
            case 127 -> " (command not found: check entry_point and that PATH or the image holds it)";
            default -> "";
        };
    }

    /**
     * As {@link #describe(int)}, with the replica's last words ({@code LastWords}) where it left any: a
     * program that exited on its own said why, and its words replace the guess at what the code means.
     */
    public static String describe(int code, java.util.Optional<String> lastWords) {
        if (lastWords.isEmpty() || code == 0) {
            return describe(code);
        }
        String quoted = "\"" + lastWords.get() + "\"";
        return code > 128 && code < 160 ? describe(code) + "; its log ends with " + quoted
                : "exited with code " + code + ": " + quoted;
    }

    /**
     * @param terminationReason the container runtime's reason ({@code OOMKilled}, {@code Error}, ...),
     *                          which tells an out-of-memory kill from another SIGKILL; may be {@code null}
     */
    public static String describe(int code, String terminationReason) {
        if (OUT_OF_MEMORY.equals(terminationReason)) {
            return "killed for using more memory than it was given (out of memory, exit code " + code
                    + "); ask for more memory";
        }
        return describe(code);
    }

    /** As {@link #describe(int, String)}, with the replica's last words where it left any. */
    public static String describe(int code, String terminationReason, java.util.Optional<String> lastWords) {
        return OUT_OF_MEMORY.equals(terminationReason) ? describe(code, terminationReason) : describe(code, lastWords);
    }

    /**
     * How a replica's exit came about, for {@code restart_on}: a kill by SIGKILL, SIGTERM, SIGHUP or SIGINT
     * came from outside the program (the kernel's out-of-memory killer, an operator, a node going down);
     * any other code, a crash by SIGSEGV or SIGABRT included, is the program's own.
     */
    public static RestartOn.Cause cause(int code) {
        return switch (code) {
            case 128 + 9, 128 + 15, 128 + 1, 128 + 2 -> RestartOn.Cause.INFRASTRUCTURE;
            default -> RestartOn.Cause.EXIT;
        };
    }

    private static String signalMeaning(int signal) {
        return switch (signal) {
            case 9 -> "SIGKILL: killed, often for running out of memory";
            case 15 -> "SIGTERM: asked to stop";
            case 11 -> "SIGSEGV: the program crashed";
            case 6 -> "SIGABRT: the program aborted";
            case 2 -> "SIGINT: interrupted";
            default -> "signal " + signal;
        };
    }
}

package io.paddlejobs.backend.local;

/** What an exit code means, in words a user can act on. */
final class ExitReasons {

    private ExitReasons() {
    }

    static String describe(int exitCode) {
        if (exitCode == 0) {
            return "exited 0";
        }
        if (exitCode > 128 && exitCode < 160) {
            return "killed by signal " + (exitCode - 128) + " (" + signalMeaning(exitCode - 128) + ")";
        }
        return "exited with code " + exitCode + switch (exitCode) {
            case 1 -> " (the program reported an error; see its log)";
            case 2 -> " (misuse of a command or a syntax error in entry_point)";
            case 126 -> " (the command is not executable)";
            case 127 -> " (command not found: check entry_point and PATH)";
            default -> "";
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

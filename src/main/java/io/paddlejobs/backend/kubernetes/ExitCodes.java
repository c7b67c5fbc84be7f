package io.paddlejobs.backend.kubernetes;

/** What an exit code means, in words a user can act on. */
final class ExitCodes {

    private ExitCodes() {
    }

    /**
     * @param terminationReason the container runtime's reason ({@code OOMKilled}, {@code Error}, ...),
     *                          which tells an out-of-memory kill from another SIGKILL
     */
    static String describe(int code, String terminationReason) {
        if ("OOMKilled".equals(terminationReason)) {
            return "exit code " + code + ": killed for using more memory than it was given (out of memory); ask for more memory";
        }
        return "exit code " + code + ": " + meaning(code);
    }

    static String meaning(int code) {
        return switch (code) {
            case 0 -> "finished successfully";
            case 1 -> "the program reported an error; see its log";
            case 2 -> "the shell could not run the command (syntax or usage error)";
            case 126 -> "the command is not executable";
            case 127 -> "command not found; check the entry point and that the image contains it";
            case 134 -> "aborted (SIGABRT)";
            case 137 -> "killed (SIGKILL, often out of memory)";
            case 139 -> "segmentation fault (SIGSEGV)";
            case 143 -> "terminated (SIGTERM)";
            default -> code > 128 && code < 160 ? "killed by signal " + (code - 128) : "see its log";
        };
    }
}

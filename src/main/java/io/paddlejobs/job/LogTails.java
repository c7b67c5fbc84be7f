package io.paddlejobs.job;

/** The last lines of a log kept as text, as {@code tail=N} asks for them of a live log. */
public final class LogTails {

    private LogTails() {
    }

    /** The last {@code tail} lines of {@code text}; all of it when {@code tail} is null. */
    public static String last(String text, Integer tail) {
        if (tail == null) {
            return text;
        }
        if (tail <= 0) {
            return "";
        }
        int start = text.endsWith("\n") ? text.length() - 1 : text.length();
        int lines = 0;
        while (start > 0) {
            if (text.charAt(start - 1) == '\n' && ++lines == tail) {
                break;
            }
            start--;
        }
        return text.substring(start);
    }
}

package io.paddlejobs.backend;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The last words of a replica that failed: the last line of its log that says something, quoted in
 * its job's message so that the cause reads where the failure is told (Python's {@code can't open
 * file 'train.py'}, the last line of a traceback) rather than at the end of a log the user must
 * first find. Blank lines, metrics reports and the service's own notes are passed over; the line is
 * cut to {@link #MAX_CHARS} characters and rid of control characters (a log holds whatever the
 * program printed, colours and progress bars included).
 */
public final class LastWords {

    static final int MAX_CHARS = 300;
    /** How far back a line that says something is looked for. */
    private static final int LINES = 20;
    private static final Pattern SAYS_NOTHING = Pattern.compile(
            "\\s*|.*PADDLEJOBS_METRICS.*|\\[paddle-jobs: .*|launch\\.sh: .*");
    private static final Pattern CONTROL = Pattern.compile("\\x1b\\[[0-9;?]*[A-Za-z]|[\\p{Cntrl}&&[^\\t]]");

    private LastWords() {
    }

    /** The log's last line that says something; empty when it has none, or cannot be read. */
    public static Optional<String> of(Path log) {
        try {
            Path parent = log.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                return Optional.empty();
            }
            Optional<FileChannel> opened = JobWrittenFiles.open(parent.toRealPath().resolve(log.getFileName()));
            if (opened.isEmpty()) {
                return Optional.empty();
            }
            try (FileChannel in = opened.get()) {
                long from = LastLines.start(in, LINES);
                ByteBuffer tail = ByteBuffer.allocate((int) Math.min(in.size() - from, LastLines.MAX_TAIL_BYTES));
                while (tail.hasRemaining() && in.read(tail, from + tail.position()) > 0) {
                    // until the tail is read (or the file was cut meanwhile)
                }
                return lastSaying(new String(tail.array(), 0, tail.position(), StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty(); // the message goes without them
        }
    }

    /** The last line of {@code tail} that says something (a container's termination message, a log's end). */
    public static Optional<String> lastSaying(String tail) {
        if (tail == null) {
            return Optional.empty();
        }
        String[] lines = tail.split("[\r\n]+");
        for (int i = lines.length - 1; i >= 0; i--) {
            String line = CONTROL.matcher(lines[i]).replaceAll("").strip();
            if (!SAYS_NOTHING.matcher(line).matches()) {
                return Optional.of(line.length() <= MAX_CHARS ? line : line.substring(0, MAX_CHARS) + "...");
            }
        }
        return Optional.empty();
    }
}

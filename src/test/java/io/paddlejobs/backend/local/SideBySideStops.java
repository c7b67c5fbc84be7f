package io.paddlejobs.backend.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Processes that show whether they were stopped side by side, without a clock: on SIGTERM each one
 * waits until all of them have had theirs (a file each in a shared directory), then leaves by itself
 * and says so. Stopped side by side they all leave at once; stopped one after the other, the first
 * waits for SIGTERMs that come only once it is gone, so it waits out the grace period and is killed
 * without saying it left. A grace period far longer than a pass takes (the processes leave as soon
 * as the last one has its SIGTERM) keeps a busy machine from making a pass look like a fail.
 */
final class SideBySideStops {

    private final Path dir;
    private final int count;

    /** @param count how many processes run {@link #command}; all of them must have a SIGTERM before any leaves */
    SideBySideStops(Path dir, int count) {
        this.dir = dir;
        this.count = count;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A shell script that waits to be stopped as above; {@code marker} is in its command line. */
    String command(String marker) {
        String d = "'" + dir + "'";
        // Files are made by the shell itself (": >"), not by touch: the service signals a group still there a
        // moment later once more, which would kill a touch under way and lose what it says.
        return "me=$(cat /proc/sys/kernel/random/uuid); trap ': > " + d + "/termed.$me' TERM; : > " + d + "/ready.$me; "
                + "while :; do if [ -e " + d + "/termed.$me ] && [ $(ls " + d + " | grep -c '^termed[.]') -ge " + count
                + " ]; then : > " + d + "/left.$me; exit 0; fi; sleep 0.1; done # " + marker;
    }

    /** How many have their SIGTERM handler in place. */
    long ready() {
        return countOf("ready.");
    }

    /** How many left by themselves, once every one of them had its SIGTERM. */
    long leftTogether() {
        return countOf("left.");
    }

    private long countOf(String prefix) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().startsWith(prefix)).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.paddlejobs.webhooks;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The durable outbox: one file per job, {@code <dir>/<namespace>/<job>.json}, readable by the service
 * alone (it holds the job's secret). A change is written to a temporary file, forced to the disk,
 * moved over the old one in one step, and the directory forced too, before it is taken as done: a kill
 * of the service, or of the machine, leaves the old file or the new one, never half of one, and never
 * loses what was answered as written. What is read is kept in memory; the files are written, not read,
 * while the service runs.
 */
final class Outbox {

    private static final Logger log = LoggerFactory.getLogger(Outbox.class);

    private final Path dir;
    private final JsonMapper json;
    private final Map<JobKey, JobOutbox> jobs = new ConcurrentHashMap<>();

    Outbox(Path dir, JsonMapper json) {
        this.dir = dir;
        this.json = json;
        read();
    }

    Optional<JobOutbox> of(JobKey key) {
        return Optional.ofNullable(jobs.get(key));
    }

    Collection<JobOutbox> all() {
        return List.copyOf(jobs.values());
    }

    /** Writes the job's file anew; what {@code change} returns is kept once it is on the disk. */
    synchronized JobOutbox update(JobKey key, UnaryOperator<JobOutbox> change) {
        JobOutbox before = jobs.get(key);
        JobOutbox after = change.apply(before);
        if (after == null) {
            remove(key);
            return null;
        }
        write(after);
        jobs.put(key, after);
        return after;
    }

    synchronized void remove(JobKey key) {
        try {
            Files.deleteIfExists(file(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        jobs.remove(key);
    }

    private Path file(JobKey key) {
        return dir.resolve(key.namespace()).resolve(key.name() + ".json");
    }

    private void write(JobOutbox outbox) {
        Path file = file(outbox.key());
        try {
            Path parent = file.getParent();
            if (!Files.isDirectory(parent)) {
                Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path temp = Files.createTempFile(parent, outbox.name() + ".", ".tmp"); // created rw------- by the JDK
            try {
                try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                    ByteBuffer bytes = ByteBuffer.wrap(json.writeValueAsBytes(outbox));
                    while (bytes.hasRemaining()) {
                        channel.write(bytes);
                    }
                    channel.force(true);
                }
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(temp);
                throw e;
            }
            try (FileChannel directory = FileChannel.open(parent, StandardOpenOption.READ)) {
                directory.force(true); // the rename itself
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the webhook outbox " + file, e);
        }
    }

    private void read() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.find(dir, 2, (path, attrs) -> attrs.isRegularFile()
                && dir.relativize(path).getNameCount() == 2)) {
            files.forEach(file -> {
                String name = file.getFileName().toString();
                if (name.endsWith(".tmp")) {
                    deleteQuietly(file); // a write that was cut off; the file it was to replace is whole
                } else if (name.endsWith(".json")) {
                    readOne(file);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the webhook outbox " + dir, e);
        }
        log.info("Webhooks: {} jobs' outboxes read back from {}", jobs.size(), dir);
    }

    private void readOne(Path file) {
        try {
            JobOutbox outbox = json.readValue(file.toFile(), JobOutbox.class);
            jobs.put(outbox.key(), outbox);
        } catch (RuntimeException e) {
            log.warn("Webhooks: {} cannot be read ({}); its deliveries are not sent", file, e.getMessage());
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("Webhooks: could not delete {}: {}", file, e.toString());
        }
    }
}

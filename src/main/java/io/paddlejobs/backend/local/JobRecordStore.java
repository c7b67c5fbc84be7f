package io.paddlejobs.backend.local;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Job directories under {@code <data-root>/jobs/<namespace>/<job>/}: {@code job.json} (the
 * record, replaced atomically so a crash never leaves half of one), {@code logs/}, {@code work/}.
 */
final class JobRecordStore {

    private static final Logger log = LoggerFactory.getLogger(JobRecordStore.class);
    private static final String RECORD = "job.json";

    private final Path jobsDir;
    private final JsonMapper json;

    JobRecordStore(Path jobsDir, JsonMapper json) {
        this.jobsDir = jobsDir;
        this.json = json;
    }

    Path jobDir(JobKey key) {
        return jobsDir.resolve(key.namespace()).resolve(key.name());
    }

    Path workDir(JobKey key) {
        return jobDir(key).resolve("work");
    }

    Path logFile(JobKey key, String replicaId) {
        return jobDir(key).resolve("logs").resolve(replicaId + ".log");
    }

    void save(JobRecord record) {
        Path dir = jobDir(new JobKey(record.plan().namespace(), record.plan().name()));
        try {
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, RECORD, ".tmp");
            json.writeValue(temp.toFile(), record);
            Files.move(temp, dir.resolve(RECORD), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the record of job " + record.plan().name(), e);
        }
    }

    /** Every readable record; an unreadable one is logged and skipped, never fatal to start-up. */
    List<JobRecord> loadAll() {
        List<JobRecord> records = new ArrayList<>();
        if (!Files.isDirectory(jobsDir)) {
            return records;
        }
        try (Stream<Path> files = Files.find(jobsDir, 3, (path, attrs) -> path.getFileName().toString().equals(RECORD))) {
            for (Path file : files.toList()) {
                try {
                    records.add(json.readValue(file.toFile(), JobRecord.class));
                } catch (RuntimeException e) {
                    log.warn("Skipping unreadable job record {}: {}", file, e.getMessage());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read job records under " + jobsDir, e);
        }
        return records;
    }

    void delete(JobKey key) {
        Path dir = jobDir(key);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the files of job " + key, e);
        }
    }
}

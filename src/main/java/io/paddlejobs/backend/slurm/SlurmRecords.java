package io.paddlejobs.backend.slurm;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/** Job directories under {@code <shared-dir>/jobs/<namespace>/<job>/}, each with its record {@code job.json}. */
final class SlurmRecords {

    private static final Logger log = LoggerFactory.getLogger(SlurmRecords.class);

    private final Path jobsDir;
    private final JsonMapper json;

    SlurmRecords(Path jobsDir, JsonMapper json) {
        this.jobsDir = jobsDir.toAbsolutePath().normalize();
        this.json = json;
    }

    JobFiles files(JobKey key) {
        return new JobFiles(jobsDir.resolve(key.namespace()).resolve(key.name()));
    }

    /** Replaces the record atomically, so a crash never leaves half of one. */
    void save(SlurmJob job) {
        Path record = files(job.key()).record();
        try {
            Files.createDirectories(record.getParent());
            Path temp = Files.createTempFile(record.getParent(), "job.json", ".tmp");
            json.writeValue(temp.toFile(), job);
            Files.move(temp, record, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the record of job " + job.plan().name(), e);
        }
    }

    /** Every readable record; an unreadable one is logged and skipped, never fatal to start-up. */
    List<SlurmJob> loadAll() {
        List<SlurmJob> jobs = new ArrayList<>();
        if (!Files.isDirectory(jobsDir)) {
            return jobs;
        }
        try (Stream<Path> found = Files.find(jobsDir, 3, (path, attrs) -> path.getFileName().toString().equals("job.json"))) {
            for (Path file : found.toList()) {
                try {
                    jobs.add(json.readValue(file.toFile(), SlurmJob.class));
                } catch (RuntimeException e) {
                    log.warn("Skipping unreadable job record {}: {}", file, e.getMessage());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read job records under " + jobsDir, e);
        }
        return jobs;
    }
}

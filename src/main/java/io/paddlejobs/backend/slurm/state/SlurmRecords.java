package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.backend.JobWrittenFiles;
import io.paddlejobs.backend.slurm.script.JobFiles;
import io.paddlejobs.backend.slurm.script.JobFilesUnusableException;
import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Job directories under {@code <shared-dir>/jobs/<namespace>/<job>/} ({@link JobDirectories}), each
 * with its record {@code job.json}. Jobs can write there too, so a record is read as {@link JobWrittenFiles} reads
 * a file, with a bound, and used only once {@link SlurmRecordChecks} found nothing wrong with it;
 * a record that is not usable is renamed out of the way ({@code job.json.refused-<millis>}) and
 * logged, never fatal to start-up.
 */
public final class SlurmRecords {

    private static final Logger log = LoggerFactory.getLogger(SlurmRecords.class);
    /** Far above any record the service writes (a plan is bounded by the request's size). */
    static final int MAX_RECORD_BYTES = 16 * 1024 * 1024;

    private static final int WRITE_LOCKS = 64;

    private final Path shared;
    private final JobDirectories directories;
    private final JsonMapper json;
    private final Object[] writeLocks = Stream.generate(Object::new).limit(WRITE_LOCKS).toArray();

    /**
     * @param directories its jobs directory is created if need be; the shared directory they lie in is
     *                    used by its real path, and nothing below it is reached through a link
     */
    public SlurmRecords(JobDirectories directories, JsonMapper json) {
        try {
            Path shared = Files.createDirectories(directories.root().toAbsolutePath().normalize()).toRealPath();
            // Jobs run as the service's user: the files are that user's alone, a link in place of either refused.
            JobDirectories.keepPrivate(shared, JobDirectories.JOBS, JobDirectories.STORAGE);
            this.shared = shared;
            this.directories = new JobDirectories(shared.resolve(JobDirectories.JOBS), directories.storage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the jobs directory " + directories.jobs() + ": " + e.getMessage(), e);
        }
        this.json = json;
    }

    public JobFiles files(JobKey key) {
        return new JobFiles(shared, key);
    }

    /**
     * Replaces the record atomically, so a crash never leaves half of one. Not through a link: a job
     * that replaced its directory (or its namespace's) by one would have the service write wherever it
     * points; its record is then left as it was (logged), and its status is kept in memory only.
     */
    public void save(SlurmJob job) {
        try {
            files(job.key()).writeRecord(out -> json.writeValue(out, job));
        } catch (JobFilesUnusableException e) {
            log.warn("The directory of job {} cannot be used ({}); its record is not written there", job.key(),
                    e.getBody().getDetail());
        }
    }

    /**
     * Writes the record while the job is still this one, under its key's write lock, the lock every
     * writer of a record takes ({@link #forget} too): a delete, which removes the job from the map before
     * its files, never races a record being written there, and two writers of one record never meet in
     * its directory. Not the map's own lock: a slow write (an NFS {@code shared-dir}) then holds up the
     * writes of the jobs that share its lock (one key in {@value #WRITE_LOCKS}), never the map's reads,
     * other keys' changes or a resize of it.
     */
    void saveIfCurrent(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmJob job) {
        synchronized (writeLock(job.key())) {
            if (jobs.get(job.key()) == job) {
                save(job);
            }
        }
    }

    /** Removes the job from the map under its key's write lock: no write of its record is under way, or follows. */
    void forget(ConcurrentHashMap<JobKey, SlurmJob> jobs, JobKey key) {
        synchronized (writeLock(key)) {
            jobs.remove(key);
        }
    }

    private Object writeLock(JobKey key) {
        return writeLocks[Math.floorMod(key.hashCode(), WRITE_LOCKS)];
    }

    /** Every usable record at {@code <namespace>/<job>/job.json}; the others are refused. */
    public List<SlurmJob> loadAll() {
        List<SlurmJob> jobs = new ArrayList<>();
        try {
            for (Path file : directories.records()) {
                load(file).ifPresent(jobs::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read job records under " + directories.jobs(), e);
        }
        return jobs;
    }

    private Optional<SlurmJob> load(Path file) {
        Path dir = file.getParent();
        Optional<String> problem;
        SlurmJob job = null;
        try {
            Optional<JobWrittenFiles.Content> content = JobWrittenFiles.read(file, MAX_RECORD_BYTES);
            if (content.isEmpty()) {
                problem = Optional.of("it is not a regular file");
            } else if (!content.get().whole()) {
                problem = Optional.of("it is larger than " + MAX_RECORD_BYTES + " bytes");
            } else {
                job = json.readValue(content.get().text(), SlurmJob.class);
                problem = SlurmRecordChecks.problem(job, dir.getParent().getFileName().toString(),
                        dir.getFileName().toString());
            }
        } catch (IOException | RuntimeException e) {
            problem = Optional.of("it cannot be read: " + e.getMessage());
        }
        if (problem.isPresent()) {
            refuse(file, problem.get());
            return Optional.empty();
        }
        return Optional.of(job.compacted());
    }

    /** Renames a record that must not be used, so that the next start does not meet it again. */
    public void refuse(Path record, String why) {
        Path target = record.resolveSibling(JobDirectories.RECORD + ".refused-" + System.currentTimeMillis());
        try {
            Files.move(record, target, StandardCopyOption.ATOMIC_MOVE);
            log.warn("Job record {} is not usable, {}; renamed to {}", record, why, target.getFileName());
        } catch (IOException e) {
            log.warn("Job record {} is not usable, {}; skipped (it could not be renamed: {})", record, why, e.toString());
        }
    }

    /** As {@link #refuse(Path, String)}, for a record that was read and then found to be another's. */
    public void refuse(SlurmJob job, String why) {
        refuse(files(job.key()).record(), why);
    }
}

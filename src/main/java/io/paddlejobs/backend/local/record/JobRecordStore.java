package io.paddlejobs.backend.local.record;

import io.paddlejobs.backend.DirectoryHandle;
import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.backend.local.JobWorkspace;
import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Job directories under {@code <data-root>/jobs/<namespace>/<job>/} ({@link JobDirectories}):
 * {@code job.json} (the record, replaced atomically so a crash never leaves half of one, readable by
 * the service alone), {@code logs/}, {@code code/}, {@code work/} ({@link JobWorkspace}). A record
 * that cannot be used is moved aside, with its directory, to {@code <data-root>/quarantine/}. What
 * is made, written or deleted here is reached through a {@link DirectoryHandle}: a job's working
 * directories are its own, and a delete must follow nothing it left in them.
 */
public final class JobRecordStore {

    private static final Logger log = LoggerFactory.getLogger(JobRecordStore.class);
    private static final String LOGS = "logs";
    private static final String RECORD = JobDirectories.RECORD;
    /** Directories being deleted are renamed to this prefix first; nothing else starts with a dot. */
    private static final String DELETING = ".deleting-";

    private final JobDirectories directories;
    private final Path jobsDir;
    private final Path quarantineDir;
    private final JsonMapper json;

    /** A record as read, with the directory it came from. */
    public record Stored(Path dir, JobRecord record) {
    }

    public JobRecordStore(JobDirectories directories, JsonMapper json) {
        this.directories = directories;
        this.jobsDir = directories.jobs();
        this.quarantineDir = jobsDir.resolveSibling("quarantine");
        this.json = json;
    }

    public Path jobDir(JobKey key) {
        return directories.jobDir(key);
    }

    public Path logFile(JobKey key, String replicaId) {
        return jobDir(key).resolve(LOGS).resolve(replicaId + ".log");
    }

    /** Where a replica's log of an earlier attempt is kept once the next attempt begins ({@link #keepLogsOf}). */
    public Path earlierLogFile(JobKey key, int attempt, String replicaId) {
        return jobDir(key).resolve(LOGS).resolve("attempt-" + attempt).resolve(replicaId + ".log");
    }

    /**
     * Moves the logs of an attempt that ended aside, before the next one's replicas write theirs anew: the
     * crash a restart was for stays readable. The logs directory is the service's alone (no job writes
     * there), so nothing here goes through what a job could have planted.
     */
    public void keepLogsOf(JobKey key, int attempt, List<String> replicaIds) throws IOException {
        for (String id : replicaIds) {
            Path log = logFile(key, id);
            if (Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS)) {
                Path kept = earlierLogFile(key, attempt, id);
                Files.createDirectories(kept.getParent());
                Files.setPosixFilePermissions(kept.getParent(), DirectoryHandle.PRIVATE);
                Files.move(log, kept, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        }
    }

    /** @throws UncheckedIOException when it cannot be written (a full disk); the previous record stays whole */
    public void save(JobRecord record) {
        try {
            Files.createDirectories(directories.root());
            try (DirectoryHandle root = DirectoryHandle.open(directories.root());
                 DirectoryHandle dir = root.directories(DirectoryHandle.PRIVATE, JobDirectories.JOBS, record.namespace(),
                         record.request().name())) {
                dir.write(RECORD, DirectoryHandle.PRIVATE_FILE, out -> json.writeValue(out, record));
            }
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException("cannot write the record of job " + record.request().name(),
                    e instanceof IOException io ? io : new IOException(e.getMessage(), e));
        }
    }

    /**
     * Every usable record. One that cannot be read or checked ({@link RecordChecks}) is moved aside
     * with a warning: no record, however broken, stops the service from starting. Records are read
     * side by side: with a thousand of them, reading is most of a restart's wait.
     */
    public List<Stored> loadAll() {
        if (!Files.isDirectory(jobsDir)) {
            return List.of();
        }
        removeUnfinishedDeletes();
        List<Path> files;
        try {
            files = directories.records();
        } catch (IOException | UncheckedIOException e) {
            log.error("Cannot list the job records under {}: starting without them", jobsDir, e);
            return List.of();
        }
        return files.parallelStream().map(this::load).flatMap(Optional::stream).toList();
    }

    private Optional<Stored> load(Path file) {
        Path dir = file.getParent();
        try {
            JobRecord record = read(file);
            Optional<String> problem = RecordChecks.problem(record, dir.getParent().getFileName().toString(),
                    dir.getFileName().toString());
            if (problem.isEmpty()) {
                return Optional.of(new Stored(dir, record));
            }
            quarantine(dir, problem.get());
        } catch (RuntimeException | IOException e) {
            quarantine(dir, "it cannot be read: " + e.getMessage());
        }
        return Optional.empty();
    }

    /** Reads a record, also in the earlier form that held the whole plan (its spec is the request). */
    private JobRecord read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("not a regular file");
        }
        byte[] bytes = Files.readAllBytes(file);
        try {
            JobRecord record = json.readValue(bytes, JobRecord.class);
            if (record == null || record.request() != null) {
                return record; // the current form, read in one pass
            }
        } catch (RuntimeException earlierForm) {
            // read below as a tree, in whichever form it is
        }
        JsonNode tree = json.readTree(bytes);
        if (tree instanceof ObjectNode object && object.has("plan") && !object.has("request")) {
            JsonNode plan = object.remove("plan");
            object.set("request", plan.get("spec"));
            object.set("namespace", plan.get("namespace"));
            if (object.path("processes").size() > 0) {
                object.set("port", plan.path("ports").get("first"));
            }
        }
        return json.treeToValue(tree, JobRecord.class);
    }

    /** Moves a job's directory out of the way, so that neither start-up nor a new job of that name trips on it. */
    void quarantine(Path dir, String why) {
        Path target = quarantineDir.resolve(jobsDir.relativize(dir).toString().replace('/', '_') + "-"
                + Instant.now().toEpochMilli());
        try {
            Files.createDirectories(quarantineDir);
            Files.move(dir, target, StandardCopyOption.ATOMIC_MOVE);
            log.warn("Job record {} is not usable, {}; moved aside to {}", dir.resolve(RECORD), why, target);
        } catch (IOException e) {
            log.warn("Job record {} is not usable, {}; skipped (it could not be moved aside: {})",
                    dir.resolve(RECORD), why, e.toString());
        }
    }

    /**
     * Removes a job's directory. It is first renamed, in one step, to a name no job can have:
     * a record written at the same moment, or a new job of the same name, never meets half a tree.
     */
    public void delete(JobKey key) {
        if (!Files.exists(jobDir(key), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        String doomed = DELETING + key.name() + "-" + UUID.randomUUID();
        try (DirectoryHandle namespace = namespaceDir(key.namespace())) {
            try {
                namespace.rename(key.name(), doomed);
            } catch (NoSuchFileException gone) {
                return;
            }
            deleteTree(namespace, doomed);
        } catch (NoSuchFileException gone) {
            // nothing of the namespace left
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the files of job " + key, e);
        }
    }

    private DirectoryHandle namespaceDir(String namespace) throws IOException {
        try (DirectoryHandle root = DirectoryHandle.open(directories.root());
             DirectoryHandle jobs = root.directory(JobDirectories.JOBS)) {
            return jobs.directory(namespace);
        }
    }

    private void removeUnfinishedDeletes() {
        try (Stream<Path> found = Files.find(jobsDir, 2, (path, attrs) -> attrs.isDirectory()
                && path.getFileName().toString().startsWith(DELETING))) {
            for (Path doomed : found.toList()) {
                try (DirectoryHandle namespace = namespaceDir(doomed.getParent().getFileName().toString())) {
                    deleteTree(namespace, doomed.getFileName().toString());
                }
            }
        } catch (IOException | UncheckedIOException e) {
            log.warn("Cannot look for unfinished deletes under {}: {}", jobsDir, e.toString());
        }
    }

    private static void deleteTree(DirectoryHandle parent, String name) {
        try {
            parent.deleteTree(name);
        } catch (IOException e) {
            log.warn("Some files of {} could not be removed: {}", parent.path().resolve(name), e.toString());
        }
    }
}

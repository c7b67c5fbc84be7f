package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.backend.JobWrittenFiles;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.RolePlan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One job's directory on the shared filesystem, {@code <shared-dir>/jobs/<namespace>/<job>/}:
 * what the replicas read ({@code launch.sh}, {@code env/<replica>.env} and {@code .placed},
 * {@code entry/<role>}), what they write ({@code logs/}, {@code state/}, {@code work/}), and the
 * service's record. Everything the replicas write is read as {@link JobWrittenFiles} reads it.
 *
 * @param dir the directory's real path (no link on the way)
 */
record JobFiles(Path dir) {

    /** A start or exit mark is one short line; more is not one. */
    private static final int MAX_MARK_BYTES = 64;
    /** One line per replica of at most a few hundred characters. */
    private static final int MAX_PLACEMENT_BYTES = 256 * 1024;
    /** As {@code launch.sh} writes it: the exit code, and {@code stopped} when the job was being stopped. */
    private static final Pattern EXIT = Pattern.compile("(\\d{1,3})( stopped)?\\n?");

    Path record() {
        return dir.resolve(JobDirectories.RECORD);
    }

    Path workDir() {
        return dir.resolve("work");
    }

    Path batchLog() {
        return dir.resolve("logs").resolve("batch.log");
    }

    Path logFile(String replicaId) {
        return dir.resolve("logs").resolve(replicaId + ".log");
    }

    /**
     * Where the replicas of one attempt leave their marks: a directory per attempt, so that a late
     * mark of an earlier attempt's replica is never taken for the current one's. The first attempt's
     * is {@code state/} itself, where jobs from before restarts have theirs.
     */
    Path stateDir(int attempt) {
        Path state = dir.resolve("state");
        return attempt == 0 ? state : state.resolve("attempt-" + attempt);
    }

    /** Makes the state directory of a later attempt, before it is submitted. */
    void prepareAttempt(int attempt) {
        try {
            Files.createDirectories(stateDir(attempt));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the state directory of attempt " + attempt + " under " + dir, e);
        }
    }

    /** Writes everything the replicas read; they start only after this, so it is complete when they look. */
    void prepare(JobPlan plan) {
        try {
            for (String sub : new String[] {"env", "entry", "logs", "state", "work"}) {
                Files.createDirectories(dir.resolve(sub));
            }
            // The same directory for every attempt, on the shared storage: made here, before any replica starts.
            String checkpoints = plan.replicas().get(0).env().get(PaddleEnv.CHECKPOINT_DIR);
            if (checkpoints != null) {
                Files.createDirectories(Path.of(checkpoints));
            }
            Files.writeString(dir.resolve("launch.sh"), BatchScripts.LAUNCHER);
            for (RolePlan role : BatchScripts.roles(plan)) {
                Files.writeString(dir.resolve("entry").resolve(role.role().label()), role.entryPoint());
            }
            for (Replica replica : plan.replicas()) {
                // Only the service's own values name hosts by token: the user's reach the replica as given.
                Files.write(dir.resolve("env").resolve(replica.id() + ".env"),
                        nulSeparated(replica.env(), name -> !PaddleEnv.isReserved(name)));
                Files.write(dir.resolve("env").resolve(replica.id() + ".placed"),
                        nulSeparated(replica.env(), PaddleEnv::isReserved));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the files of job " + plan.name() + " under " + dir, e);
        }
    }

    /** {@code NAME=value\0} per variable: a value may hold any character but NUL, newlines included. */
    private static byte[] nulSeparated(Map<String, String> env, Predicate<String> names) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        env.forEach((name, value) -> {
            if (names.test(name)) {
                out.writeBytes((name + "=" + value).getBytes(StandardCharsets.UTF_8));
                out.write(0);
            }
        });
        return out.toByteArray();
    }

    /**
     * What the replicas of {@code plan} have left in the state directory of {@code attempt}: who started, who exited how,
     * whether the job was being stopped, where each runs. Only the files those replicas write are
     * looked at; a mark that is not one (a link, a FIFO, a device, text that is no exit code) counts
     * as not written.
     */
    ReplicaMarks marks(JobPlan plan, int attempt) {
        Path state = stateDir(attempt);
        Map<String, ReplicaMarks.Mark> marks = new HashMap<>();
        for (Replica replica : plan.replicas()) {
            String id = replica.id();
            read(state.resolve(id + ".started"), MAX_MARK_BYTES).ifPresent(started -> marks.merge(id,
                    new ReplicaMarks.Mark(true, null, false, instant(started.text()), null), ReplicaMarks.Mark::merge));
            read(state.resolve(id + ".exit"), MAX_MARK_BYTES).ifPresent(exit -> {
                Matcher outcome = EXIT.matcher(exit.text());
                if (outcome.matches() && Integer.parseInt(outcome.group(1)) <= 255) {
                    marks.merge(id, new ReplicaMarks.Mark(true, Integer.valueOf(outcome.group(1)),
                            outcome.group(2) != null, null, exit.modified()), ReplicaMarks.Mark::merge);
                }
            });
        }
        boolean stopping = Files.exists(state.resolve("stopping"), LinkOption.NOFOLLOW_LINKS);
        Placement placement = read(state.resolve("placement"), MAX_PLACEMENT_BYTES)
                .filter(JobWrittenFiles.Content::whole).map(content -> Placement.parse(content.text())).orElse(null);
        return new ReplicaMarks(marks, stopping, placement);
    }

    /** The launcher writes {@code date -u +%FT%TZ}; anything else is no time. */
    private static Instant instant(String text) {
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A mark as its replica wrote it; one that cannot be read now (being replaced) is read at the next poll. */
    private static Optional<JobWrittenFiles.Content> read(Path file, int maxBytes) {
        try {
            return JobWrittenFiles.read(file, maxBytes);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Removes the record alone, so that a later start of the service does not read the job back. */
    void deleteRecord() {
        try {
            Files.deleteIfExists(record());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the record " + record(), e);
        }
    }

    void delete() {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            JobDirectories.deleteTree(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the files of the job under " + dir, e);
        }
    }
}

package io.paddlejobs.backend.slurm.script;

import io.paddlejobs.backend.DirectoryHandle;
import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.backend.JobWrittenFiles;
import io.paddlejobs.backend.KeptStackDumps;
import io.paddlejobs.backend.LastWords;
import io.paddlejobs.backend.TensorBoardScalars;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.StackDump;
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
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One job's directory on the shared filesystem, {@code <shared-dir>/jobs/<namespace>/<job>/}:
 * what the replicas read ({@code launch.sh}, {@code env/<replica>.env} and {@code .placed},
 * {@code entry/<role>}), what they write ({@code logs/}, {@code state/}, {@code work/<replica>/}, each
 * replica's own working directory), and the service's record; all of it the service's user's alone
 * (files {@code rw-------}, directories {@code rwx------}): that user is the job's too. Everything the
 * replicas write is read as {@link JobWrittenFiles} reads it. A job can rename or replace anything on
 * the shared directory ({@code jobs/} and its namespace's directory included), from any node, at any
 * moment: what the service makes, writes or deletes here it reaches from the shared directory (the
 * operator's) through a {@link DirectoryHandle}, a name at a time and no link followed, and a link or
 * a file where a directory should be is refused ({@link JobFilesUnusableException}).
 *
 * @param shared the shared directory's real path
 * @param key    the job
 */
public record JobFiles(Path shared, JobKey key) {

    private static final String ENV = "env";
    /** In {@code env/}: the secrets' {@code NAME=value\0} pairs, read by {@code launch.sh}. */
    static final String SECRETS = "secrets";
    private static final String ENTRY = "entry";
    private static final String LOGS = "logs";
    private static final String STATE = "state";
    private static final String WORK = "work";
    private static final String CHECKPOINTS = "checkpoints";
    /** In an attempt's state directory: a held replica's launcher ends its hold once this is there. */
    private static final String HOLD_OVER = "hold-over";
    /** A start or exit mark is one short line; more is not one. */
    private static final int MAX_MARK_BYTES = 64;
    /** One line per replica of at most a few hundred characters. */
    private static final int MAX_PLACEMENT_BYTES = 256 * 1024;
    /** As {@code launch.sh} writes it: the exit code, and {@code stopped} when the job was being stopped. */
    private static final Pattern EXIT = Pattern.compile("(\\d{1,3})( stopped)?\\n?");
    /** The seconds launch.sh waited for trainer 0 (RENDEZVOUS_TIMEOUT): a whole number, nothing else. */
    private static final Pattern SECONDS = Pattern.compile("\\d{1,9}");
    /** A process id as {@code launch.sh} writes it. */
    private static final Pattern PID = Pattern.compile("([1-9]\\d{0,9})\\n?");

    /** The job's directory (a path: where it is, not what is there now). */
    Path dir() {
        return shared.resolve(JobDirectories.JOBS).resolve(key.namespace()).resolve(key.name());
    }

    public Path record() {
        return dir().resolve(JobDirectories.RECORD);
    }

    Path workDir() {
        return dir().resolve(WORK);
    }

    Path batchLog() {
        return dir().resolve(LOGS).resolve("batch.log");
    }

    /**
     * A replica's log of one attempt: a file per attempt, so that a restart keeps the crash it was for readable
     * (each attempt's replicas write their own, and nothing is moved). The first attempt's is in {@code logs/}
     * itself, where jobs from before restarts have theirs; a later one's in {@code logs/attempt-N/}.
     */
    public Path logFile(String replicaId, int attempt) {
        return logDir(attempt).resolve(replicaId + ".log");
    }

    /** Where the replicas of one attempt write their logs ({@link #logFile}). */
    Path logDir(int attempt) {
        Path logs = dir().resolve(LOGS);
        return attempt == 0 ? logs : logs.resolve(attemptDir(attempt));
    }

    /**
     * Where the replicas of one attempt leave their marks: a directory per attempt, so that a late
     * mark of an earlier attempt's replica is never taken for the current one's. The first attempt's
     * is {@code state/} itself, where jobs from before restarts have theirs.
     */
    public Path stateDir(int attempt) {
        Path state = dir().resolve(STATE);
        return attempt == 0 ? state : state.resolve(attemptDir(attempt));
    }

    private static String attemptDir(int attempt) {
        return "attempt-" + attempt;
    }

    /**
     * Makes the state and log directories of a later attempt, before it is submitted, and writes the launcher
     * again: the attempt's batch script is this service's, and so is the launcher it runs.
     */
    public void prepareAttempt(int attempt) {
        inJobDirectory("make the directories of attempt " + attempt, job -> {
            for (String sub : new String[] {STATE, LOGS}) {
                try (DirectoryHandle dir = job.directory(sub, DirectoryHandle.PRIVATE)) {
                    dir.directory(attemptDir(attempt), DirectoryHandle.PRIVATE).close();
                }
            }
            job.write("launch.sh", DirectoryHandle.PRIVATE_FILE, bytes(BatchScripts.LAUNCHER));
        });
    }

    /**
     * Writes everything the replicas read, and makes each replica's working directory and the job's
     * checkpoint directory; replicas start only after this, so it is complete when they look.
     */
    public void prepare(JobPlan plan) {
        inJobDirectory("write the files of job " + plan.name(), job -> {
            for (String sub : new String[] {ENV, ENTRY, LOGS, STATE}) {
                job.directory(sub, DirectoryHandle.PRIVATE).close();
            }
            try (DirectoryHandle work = job.directory(WORK, DirectoryHandle.PRIVATE)) {
                for (Replica replica : plan.replicas()) {
                    work.directory(replica.id(), DirectoryHandle.PRIVATE).close();
                }
            }
            job.write("launch.sh", DirectoryHandle.PRIVATE_FILE, bytes(BatchScripts.LAUNCHER));
            try (DirectoryHandle entry = job.directory(ENTRY)) {
                for (RolePlan role : BatchScripts.roles(plan)) {
                    entry.write(role.role().label(), DirectoryHandle.PRIVATE_FILE,
                            bytes(TensorBoardScalars.command(plan, role.role())));
                }
            }
            try (DirectoryHandle env = job.directory(ENV)) {
                for (Replica replica : plan.replicas()) {
                    // Only the service's own values name hosts by token: the user's reach the replica as given.
                    env.write(replica.id() + ".env", DirectoryHandle.PRIVATE_FILE,
                            out -> out.write(nulSeparated(replica.env(), name -> !PaddleEnv.isReserved(name))));
                    env.write(replica.id() + ".placed", DirectoryHandle.PRIVATE_FILE,
                            out -> out.write(nulSeparated(replica.env(), PaddleEnv::isReserved)));
                }
            }
        });
        // The same directory for every attempt, on the namespace's storage: made here, before any replica starts.
        inShared("make the checkpoint directory of job " + plan.name(), shared -> shared.directories(
                DirectoryHandle.PRIVATE, JobDirectories.STORAGE, key.namespace(), CHECKPOINTS, key.name()).close());
    }

    /**
     * The job's secret values, for {@code launch.sh} to give each replica's entry point through its environment
     * (never a command line, which every user of a node can read): one file beside the replicas' environments,
     * the service user's alone, which goes with the job's directory. Nothing when the job names no secrets.
     */
    public void writeSecrets(Map<String, String> values) {
        if (values.isEmpty()) {
            return;
        }
        inJobDirectory("write the secrets of job " + key.name(), job -> {
            try (DirectoryHandle env = job.directory(ENV)) {
                env.write(SECRETS, DirectoryHandle.PRIVATE_FILE, out -> out.write(nulSeparated(values, name -> true)));
            }
        });
    }

    /**
     * Ends the hold of {@code attempt}'s failed replica ({@code debug_hold}): the mark its launcher waits for
     * ({@code hold-over}) in the attempt's state directory, written once; nothing where the job's directory is gone.
     */
    public void endHold(int attempt) {
        if (Files.exists(stateDir(attempt).resolve(HOLD_OVER), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        inExistingJobDirectory("end the hold of job " + key.name(), job -> {
            try (DirectoryHandle state = job.directory(STATE);
                 DirectoryHandle attemptState = attempt == 0 ? null : state.directory(attemptDir(attempt))) {
                (attemptState == null ? state : attemptState).write(HOLD_OVER, DirectoryHandle.PRIVATE_FILE, bytes(""));
            }
        });
    }

    /**
     * What a command run in a replica of a held attempt is given on the replica's node (exec), as paths there: the
     * replica's environment as its launcher gave it (NUL-separated, kept in the attempt's state directory), its
     * working directory, and the job's secrets (a file that may be absent).
     */
    public List<String> execArguments(String replicaId, int attempt) {
        return List.of(stateDir(attempt).resolve(replicaId + ".vars").toAbsolutePath().toString(),
                workDir().resolve(replicaId).toAbsolutePath().toString(),
                dir().resolve(ENV).resolve(SECRETS).toAbsolutePath().toString());
    }

    /** Replaces the record in one step, no link followed; the job's directory is made where missing. */
    public void writeRecord(DirectoryHandle.Writing record) {
        inJobDirectory("write the record of job " + key.name(),
                job -> job.write(JobDirectories.RECORD, DirectoryHandle.PRIVATE_FILE, record));
    }

    private static DirectoryHandle.Writing bytes(String text) {
        return out -> out.write(text.getBytes(StandardCharsets.UTF_8));
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
    public ReplicaMarks marks(JobPlan plan, int attempt) {
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
        // A failed replica's last line is often why it failed: the end of its log of this attempt. None for a job
        // with secrets: what it printed of them would go into its status unmasked.
        if (plan.spec().code().envFromSecrets().isEmpty()) {
            marks.replaceAll((id, mark) -> mark.failedOnItsOwn()
                    ? mark.withLastWords(LastWords.of(logFile(id, attempt)).orElse(null)) : mark);
        }
        boolean stopping = Files.exists(state.resolve("stopping"), LinkOption.NOFOLLOW_LINKS);
        Placement placement = read(state.resolve("placement"), MAX_PLACEMENT_BYTES)
                .filter(JobWrittenFiles.Content::whole).map(content -> Placement.parse(content.text())).orElse(null);
        Duration rendezvous = read(state.resolve("rendezvous-not-listening"), MAX_MARK_BYTES)
                .map(content -> SECONDS.matcher(content.text().strip()))
                .filter(Matcher::matches).map(seconds -> Duration.ofSeconds(Long.parseLong(seconds.group()))).orElse(null);
        return new ReplicaMarks(marks, stopping, placement, rendezvous);
    }

    /**
     * The process on its node that {@code launch.sh} started a replica of {@code attempt} as (the root of the replica's
     * processes there: its PID namespace's maker, or the entry point itself), as the launcher wrote it; empty before
     * it did, or where what is there is no process id.
     */
    public OptionalLong rootPid(String replicaId, int attempt) {
        return read(stateDir(attempt).resolve(replicaId + ".pid"), MAX_MARK_BYTES)
                .map(content -> PID.matcher(content.text())).filter(Matcher::matches)
                .map(pid -> OptionalLong.of(Long.parseLong(pid.group(1)))).orElse(OptionalLong.empty());
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

    /**
     * Keeps a stack dump of the job in its directory ({@link KeptStackDumps}), only in the directory as it is: a job
     * deleted meanwhile does not get its directory back.
     */
    public void keepStacks(StackDump dump, int keep) {
        inExistingJobDirectory("keep a stack dump of job " + key.name(), job -> KeptStackDumps.keep(job, dump, keep));
    }

    /** The stack dumps kept of the job, newest first; none where its directory is gone or cannot be read. */
    public List<StackDump> stacks() {
        List<StackDump> kept = new ArrayList<>();
        try {
            inExistingJobDirectory("read the stack dumps of job " + key.name(), job -> kept.addAll(KeptStackDumps.kept(job)));
        } catch (JobFilesUnusableException | UncheckedIOException unreadable) {
            return List.of();
        }
        return kept;
    }

    /** Removes the record alone, following no link, so that a later start of the service does not read the job back. */
    public void deleteRecord() {
        inExistingJobDirectory("delete the record of job " + key.name(), job -> job.deleteTree(JobDirectories.RECORD));
    }

    /** Deletes the job's directory and everything in it, following no link; what is already gone is what was wanted. */
    public void delete() {
        inShared("delete the files of job " + key.name(), shared -> {
            try (DirectoryHandle jobs = shared.directory(JobDirectories.JOBS);
                 DirectoryHandle namespace = jobs.directory(key.namespace())) {
                namespace.deleteTree(key.name());
            } catch (NoSuchFileException nothingLeft) {
                // no namespace directory: nothing of the job's either
            }
        });
    }

    /** A step in the job's directory as it is; none where it is gone. */
    private void inExistingJobDirectory(String what, Step step) {
        inShared(what, shared -> {
            try (DirectoryHandle jobs = shared.directory(JobDirectories.JOBS);
                 DirectoryHandle namespace = jobs.directory(key.namespace());
                 DirectoryHandle job = namespace.directory(key.name())) {
                step.in(job);
            } catch (NoSuchFileException nothingLeft) {
                // no directory of the job's: nothing of it to read or change
            }
        });
    }

    /** A step in the job's directory, made (private) where missing. */
    private void inJobDirectory(String what, Step step) {
        inShared(what, shared -> {
            try (DirectoryHandle job = shared.directories(DirectoryHandle.PRIVATE, JobDirectories.JOBS, key.namespace(),
                    key.name())) {
                step.in(job);
            }
        });
    }

    /** A step from the shared directory; a link or a file where a directory should be is the job's files' fault. */
    private void inShared(String what, Step step) {
        try (DirectoryHandle root = DirectoryHandle.open(shared)) {
            step.in(root);
        } catch (DirectoryHandle.UnusableDirectoryException e) {
            throw new JobFilesUnusableException(key, shared.relativize(Path.of(e.getFile())), e.getReason(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot " + what + " under " + dir(), e);
        }
    }

    @FunctionalInterface
    private interface Step {
        void in(DirectoryHandle dir) throws IOException;
    }
}

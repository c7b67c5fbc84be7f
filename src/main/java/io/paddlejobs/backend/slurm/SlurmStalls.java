package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.StallWatch;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code stall_timeout} on Slurm: each replica's log is a file on the shared directory, so a trainer's
 * last sign of life is its log's modification time, judged as the local backend judges its own
 * ({@link StallWatch}). One {@code stat} per running trainer per poll, for the jobs that set a timeout.
 */
final class SlurmStalls {

    private SlurmStalls() {
    }

    /** Which trainers were silent since when, when the running attempt {@code mapped} has stalled; else empty. */
    static Optional<String> silence(SlurmJob job, JobStatus mapped, JobFiles files, Instant now) {
        Duration timeout = job.plan().spec().lifecycle().stallTimeout();
        if (timeout == null || mapped.phase() != JobPhase.RUNNING || mapped.startedAt() == null) {
            return Optional.empty();
        }
        return new StallWatch(timeout, began(mapped)).silence(mapped.replicas(), id -> modified(files.logFile(id)), now);
    }

    /**
     * When the attempt's last trainer was started by its launcher: Slurm's start of the job comes
     * before the steps are launched, which on a busy cluster can take longer than a short timeout.
     */
    private static Instant began(JobStatus mapped) {
        return mapped.replicas().stream().filter(r -> r.role() == Role.TRAINER).map(ReplicaStatus::startedAt)
                .filter(Objects::nonNull).max(Comparator.naturalOrder()).orElse(mapped.startedAt());
    }

    /** Whether a stall fails the attempt ({@code restart_on} names it) rather than being a warning. */
    static boolean failsTheAttempt(SlurmJob job) {
        return job.unplaced() != null
                && job.plan().spec().lifecycle().restartOnOrDefault().retries(RestartOn.Cause.STALL, null);
    }

    /** The running attempt's status as it shows a stall: a warning, unless the status has a reason of its own. */
    static JobStatus warned(JobStatus shown, String silence) {
        if (shown.reason() != null) {
            return shown;
        }
        return new JobStatus(shown.phase(), StallWatch.STALLED, silence, shown.createdAt(), shown.startedAt(),
                shown.finishedAt(), shown.queuePosition(), shown.pservers(), shown.trainers(), shown.replicas(),
                shown.restarts(), shown.attempts());
    }

    /** The attempt failed by its stall, for {@link SlurmRestarts#ended}. */
    static JobStatus failed(JobStatus mapped, String silence, Instant now) {
        return new JobStatus(JobPhase.FAILED, StallWatch.STALLED, silence, mapped.createdAt(), mapped.startedAt(), now,
                null, mapped.pservers(), mapped.trainers(), mapped.replicas());
    }

    private static Instant modified(Path log) {
        try {
            return Files.getLastModifiedTime(log, LinkOption.NOFOLLOW_LINKS).toInstant();
        } catch (IOException e) {
            return null; // nothing printed yet
        }
    }
}

package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.StepSightings;
import io.paddlejobs.backend.slurm.script.JobFiles;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.StallJudge;
import io.paddlejobs.job.attempt.StallWatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code stall_timeout} on Slurm: each replica's log of the attempt is a file on the shared directory, so a
 * trainer's last sign of life is its log's modification time, judged as the local backend judges its own
 * ({@link StallWatch}). One {@code stat} per running trainer per poll, for the jobs that set a timeout.
 */
final class SlurmStalls {

    private SlurmStalls() {
    }

    /** Which trainers were silent since when, when the running attempt {@code mapped} has stalled; else empty. */
    static Optional<String> silence(SlurmJob job, JobStatus mapped, JobFiles files, StepSightings steps, Instant now) {
        Duration timeout = job.plan().spec().lifecycle().stallTimeout();
        if (timeout == null || mapped.phase() != JobPhase.RUNNING || mapped.startedAt() == null) {
            return Optional.empty();
        }
        return new StallWatch(timeout, StallWatch.began(mapped)).silence(mapped.replicas(),
                id -> modified(files.logFile(id, job.attempt())), id -> steps.last(job.key(), id), now);
    }

    /** Whether a stall fails the attempt ({@code restart_on} names it) rather than being a warning. */
    static boolean failsTheAttempt(SlurmJob job) {
        return job.unplaced() != null && StallJudge.failsTheAttempt(job.plan().spec());
    }

    private static Instant modified(Path log) {
        try {
            return Files.getLastModifiedTime(log, LinkOption.NOFOLLOW_LINKS).toInstant();
        } catch (IOException e) {
            return null; // nothing printed yet
        }
    }
}

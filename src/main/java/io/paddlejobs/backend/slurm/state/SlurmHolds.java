package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.job.attempt.AttemptLedger;
import io.paddlejobs.job.attempt.DebugHold;
import io.paddlejobs.job.attempt.Ending;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code debug_hold} on Slurm: a replica that failed on its own keeps its task (launch.sh waits after its exit mark),
 * so the Slurm job runs on with its allocation and its other replicas, and the job reads {@code Running}, reason
 * {@link DebugHold#HELD}, with the local backend's message. The hold lasts {@code debug_hold} from the failed
 * replica's exit as its mark recorded it, which a restart of the service reads again; once it is over, the service
 * writes the mark the launcher waits for, its task exits, the Slurm job ends, and {@link SlurmRestarts#ended}
 * restarts or fails the job as that failure would have at once. A cancel stops the task as any. Pure.
 */
final class SlurmHolds {

    private SlurmHolds() {
    }

    /**
     * @param status the held job's status
     * @param over   the hold's time is over: its launcher is to be told ({@code JobFiles#endHold})
     */
    record Held(JobStatus status, boolean over) {
    }

    /**
     * The hold of the current attempt, where the request asks for one and a replica failed while the Slurm job runs.
     *
     * @param shown the running attempt as the job shows it ({@link SlurmRestarts#during})
     */
    static Optional<Held> of(SlurmJob job, JobStatus shown, RestartBackoff backoff, Instant now) {
        if (job.cancelRequested()) {
            return Optional.empty();
        }
        Optional<Ending> failed = SlurmStatusMapper.failedWhileRunning(shown);
        if (failed.isEmpty()) {
            return Optional.empty();
        }
        Ending ending = failed.get();
        Instant failedAt = shown.replicas().stream()
                .filter(r -> r.role() == ending.role() && r.index() == ending.index())
                .map(ReplicaStatus::finishedAt).filter(java.util.Objects::nonNull).findFirst().orElse(now);
        return DebugHold.of(job.plan().spec(), ending, failedAt).map(hold -> {
            RestartDecision next = AttemptLedger.of(shown).after(job.plan().spec(), ending, backoff).orElseThrow();
            String message = hold.message(ending.message(), job.key().name(), next);
            return new Held(shown.with(JobPhase.RUNNING, DebugHold.HELD, message), hold.over(now));
        });
    }
}

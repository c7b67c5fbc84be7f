package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.Rendezvous;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.Placement;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import io.paddlejobs.job.ExitCodes;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.job.attempt.Ending;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Slurm's view of a job's components plus what its replicas recorded, as our status. Pure: the
 * backend fetches, this maps. Slurm says how the job as a whole ended (time limit, node failure,
 * cancelled); the replicas' own marks say which replica failed and how. A final status comes with its
 * {@link Ending}, which carries the failed replica and its exit code as the marks recorded them.
 */
public final class SlurmStatusMapper {

    /** Of the components' final states, the one that explains the job: the first in this list. */
    private static final List<String> WORST_FIRST = List.of("NODE_FAIL", "BOOT_FAIL", "OUT_OF_MEMORY", "TIMEOUT",
            "DEADLINE", "PREEMPTED", "FAILED", "CANCELLED", "COMPLETED");

    /** Final states in which Slurm sent the replicas their signals. */
    private static final List<String> SLURM_STOPS = List.of("CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
            "DEADLINE", "OUT_OF_MEMORY");

    private SlurmStatusMapper() {
    }

    /** What a job tracked by the service looks like now. */
    public record Tracked(JobPlan plan, Instant createdAt, boolean cancelRequested, List<SlurmJobInfo> components,
                   ReplicaMarks marks) {
    }

    /**
     * A status as the mapper saw it.
     *
     * @param ending what ended the attempt, for a final status; {@code null} while it runs
     */
    public record Seen(JobStatus status, Ending ending) {
    }

    public static JobStatus map(Tracked job) {
        return see(job).status();
    }

    /** As {@link #map}, with what ended the attempt once it has ended. */
    public static Seen see(Tracked job) {
        List<SlurmJobInfo> components = job.components();
        Instant started = components.stream().filter(SlurmJobInfo::ran).map(SlurmJobInfo::startTime)
                .filter(java.util.Objects::nonNull).min(Comparator.naturalOrder()).orElse(null);
        boolean allFinal = !components.isEmpty() && components.stream().allMatch(SlurmJobInfo::isFinal);
        if (!allFinal) {
            return new Seen(running(job, started), null);
        }
        String state = components.stream().map(SlurmJobInfo::state)
                .min(Comparator.comparingInt(s -> WORST_FIRST.contains(s) ? WORST_FIRST.indexOf(s) : WORST_FIRST.size()))
                .orElseThrow();
        Instant finished = components.stream().map(SlurmJobInfo::endTime).filter(java.util.Objects::nonNull)
                .max(Comparator.naturalOrder()).orElse(null);
        return ended(job, state, started, finished);
    }

    /** The job as it stands once the service has cancelled it; Slurm is told, but the outcome is already decided. */
    static JobStatus cancelled(Tracked job, Instant started, Instant now) {
        return ended(job, "CANCELLED", started, now).status();
    }

    /** Slurm no longer knows the job (it forgets finished jobs): the replicas' marks are all there is. */
    static JobStatus forgotten(Tracked job, Instant now) {
        return seeForgotten(job, now).status();
    }

    /** As {@link #forgotten}, with what ended the attempt. */
    public static Seen seeForgotten(Tracked job, Instant now) {
        boolean trainersSucceeded = job.plan().replicasOf(Role.TRAINER).stream()
                .allMatch(r -> Integer.valueOf(0).equals(job.marks().of(r.id()).exitCode()));
        return ended(job, trainersSucceeded ? "COMPLETED" : "LOST", null, now);
    }

    private static JobStatus running(Tracked job, Instant started) {
        List<ReplicaStatus> replicas = replicas(job, null, false);
        boolean pending = job.components().isEmpty() || job.components().stream().anyMatch(c -> c.state().equals("PENDING"));
        if (pending) {
            String reason = job.components().stream().map(SlurmJobInfo::reason).filter(r -> !r.equals("None"))
                    .findFirst().orElse("None");
            return status(job, JobPhase.PENDING, "Pending", SlurmWords.pending(reason), null, null, replicas);
        }
        boolean allStarted = replicas.stream().allMatch(r -> r.state() != ReplicaState.PENDING);
        if (!allStarted) {
            return status(job, JobPhase.PENDING, "Starting", "Slurm started the job on "
                    + nodes(job) + "; its replicas are starting", started, null, replicas);
        }
        return status(job, JobPhase.RUNNING, null, null, started, null, replicas);
    }

    private static Seen ended(Tracked job, String state, Instant started, Instant finished) {
        boolean slurmStopped = SLURM_STOPS.contains(state);
        Optional<ReplicaStatus> failed = firstFailed(replicas(job, null, slurmStopped));
        String stoppedBecause = switch (state) {
            case "COMPLETED" -> "stopped: every trainer had finished";
            case "CANCELLED" -> job.cancelRequested() ? "stopped: the job was cancelled" : "stopped: cancelled in Slurm";
            case "TIMEOUT" -> "stopped: the job reached its time limit";
            case "NODE_FAIL" -> "lost: a node of the job failed";
            default -> failed.map(f -> "stopped: " + f.id() + " failed").orElse("stopped: the job ended");
        };
        List<ReplicaStatus> replicas = replicas(job, stoppedBecause, slurmStopped);
        if (rendezvousFailed(job, state)) {
            // The job failed because trainer 0 did not listen: the attempt's ending is trainer 0's, with its exit code if it has one.
            String message = rendezvousFailure(job);
            return new Seen(status(job, JobPhase.FAILED, Rendezvous.NOT_LISTENING, message, started, finished, replicas),
                    new Ending(Ending.Kind.EXITED, Role.TRAINER, 0, job.marks().of(Replica.idOf(Role.TRAINER, 0)).exitCode(),
                            Rendezvous.NOT_LISTENING, message));
        }
        long minutes = job.components().stream().mapToLong(SlurmJobInfo::timeLimitMinutes).max().orElse(0);
        return switch (state) {
            case "COMPLETED" -> failed.isPresent()
                    ? failedBy(job, failed.get(), started, finished, replicas)
                    : seen(status(job, JobPhase.SUCCEEDED, JobStatus.COMPLETED, JobStatus.COMPLETED_MESSAGE, started,
                            finished, replicas), Ending.Kind.SUCCEEDED);
            case "CANCELLED" -> seen(job.cancelRequested()
                    ? status(job, JobPhase.CANCELLED, "Cancelled", "cancelled on request", started, finished, replicas)
                    : status(job, JobPhase.FAILED, "CancelledInSlurm", "the job was cancelled outside the service"
                            + " (scancel, or by an administrator)", started, finished, replicas), Ending.Kind.STOPPED);
            case "TIMEOUT" -> seen(status(job, JobPhase.FAILED, "TimeLimit", "the job ran into its time limit"
                    + (minutes > 0 ? " of " + SlurmWords.minutes(minutes) : "") + " and Slurm stopped it",
                    started, finished, replicas), Ending.Kind.STOPPED);
            case "NODE_FAIL" -> seen(status(job, JobPhase.FAILED, "NodeFailed", "a node of the job (" + nodes(job)
                    + ") failed while it ran, and its replicas there were lost", started, finished, replicas),
                    Ending.Kind.FROM_OUTSIDE);
            case "OUT_OF_MEMORY" -> seen(status(job, JobPhase.FAILED, "OutOfMemory", "a replica used more memory than"
                    + " it was given and Slurm stopped the job; ask for more memory", started, finished, replicas),
                    Ending.Kind.FROM_OUTSIDE);
            case "LOST" -> seen(status(job, JobPhase.FAILED, "Lost", "Slurm no longer knows the job and not every"
                    + " trainer recorded a successful exit", started, finished, replicas), Ending.Kind.FROM_OUTSIDE);
            default -> failed.isPresent()
                    ? failedBy(job, failed.get(), started, finished, replicas)
                    : seen(status(job, JobPhase.FAILED, SlurmWords.stateReason(state), SlurmWords.ended(state,
                            job.components()), started, finished, replicas), endingOf(state));
        };
    }

    /**
     * How a final state that names no failed replica ended the attempt: a deadline stops it as a time limit
     * does (never retried), a preemption or a node that failed to boot came from outside, and any other
     * failure is taken as the program's own.
     */
    private static Ending.Kind endingOf(String state) {
        return switch (state) {
            case "DEADLINE" -> Ending.Kind.STOPPED;
            case "PREEMPTED", "BOOT_FAIL" -> Ending.Kind.FROM_OUTSIDE;
            default -> Ending.Kind.EXITED;
        };
    }

    private static Seen seen(JobStatus status, Ending.Kind kind) {
        return new Seen(status, new Ending(kind, null, null, null, status.reason(), status.message()));
    }

    /**
     * A trainer gave up waiting for trainer 0 to listen and ended the job (launch.sh): that is why it failed,
     * unless it was cancelled or Slurm ended it first. Only a job whose trainers meet at trainer 0 waits.
     */
    private static boolean rendezvousFailed(Tracked job, String state) {
        return job.marks().rendezvousTimeout() != null && Rendezvous.applies(job.plan()) && !job.cancelRequested()
                && (state.equals("FAILED") || state.equals("COMPLETED"));
    }

    private static String rendezvousFailure(Tracked job) {
        String trainer0 = Replica.idOf(Role.TRAINER, 0);
        Placement.Slot slot = job.marks().placement() == null ? null : job.marks().placement().slots().get(trainer0);
        String host = slot != null ? slot.address() : job.plan().replicasOf(Role.TRAINER).get(0).host();
        int port = slot != null ? slot.port() : job.plan().ports().first();
        return Rendezvous.notListening(host, port, job.marks().rendezvousTimeout(),
                "paddlejobs.rendezvous-listen-timeout");
    }

    /** The failed replica that explains the attempt: a trainer before a pserver, the lowest index first. */
    private static Optional<ReplicaStatus> firstFailed(List<ReplicaStatus> replicas) {
        return replicas.stream().filter(r -> r.state() == ReplicaState.FAILED)
                .min(Comparator.comparing((ReplicaStatus r) -> r.role() == Role.TRAINER ? 0 : 1)
                        .thenComparingInt(ReplicaStatus::index));
    }

    /**
     * While the job still runs ({@code running}, as {@link #see} mapped it): the ending a replica that failed on its
     * own would give the attempt, where one did (its task lives on for a {@code debug_hold}: launch.sh).
     */
    public static Optional<Ending> failedWhileRunning(JobStatus running) {
        return firstFailed(running.replicas()).map(SlurmStatusMapper::endingBy);
    }

    /** The job failed by this replica's own exit, as its mark recorded it. */
    private static Seen failedBy(Tracked job, ReplicaStatus replica, Instant started, Instant finished,
                                 List<ReplicaStatus> replicas) {
        Ending ending = endingBy(replica);
        return new Seen(status(job, JobPhase.FAILED, ending.reason(), ending.message(), started, finished, replicas),
                ending);
    }

    private static Ending endingBy(ReplicaStatus replica) {
        String reason = replica.role() == Role.TRAINER ? "TrainerFailed" : "PserverFailed";
        return Ending.exited(replica.role(), replica.index(), replica.exitCode(), reason,
                replica.id() + " " + replica.reason());
    }

    /**
     * @param stoppedBecause for an ended job, what a replica that was stopped is told; null while it runs
     * @param slurmStopped   Slurm itself ended the job (cancel, time limit, node failure): a replica
     *                       killed by a signal then was stopped, it did not fail
     */
    private static List<ReplicaStatus> replicas(Tracked job, String stoppedBecause, boolean slurmStopped) {
        boolean ended = stoppedBecause != null;
        List<ReplicaStatus> replicas = new ArrayList<>();
        for (Replica replica : job.plan().replicas()) {
            ReplicaMarks.Mark mark = job.marks().of(replica.id());
            ReplicaState state;
            String reason = null;
            if (mark.exitCode() != null && slurmStopped && mark.exitCode() > 128) {
                state = ReplicaState.STOPPED;
                reason = ended ? stoppedBecause : null;
            } else if (mark.exitCode() != null) {
                int code = mark.exitCode();
                state = code == 0 ? ReplicaState.SUCCEEDED : mark.stopped() ? ReplicaState.STOPPED : ReplicaState.FAILED;
                reason = code == 0 ? null : mark.stopped() ? "stopped when the job's outcome was decided"
                        : ExitCodes.describe(code, java.util.Optional.ofNullable(mark.lastWords()));
            } else if (ended) {
                state = ReplicaState.STOPPED;
                reason = mark.started() ? stoppedBecause : "never started";
            } else {
                state = mark.started() ? ReplicaState.RUNNING : ReplicaState.PENDING;
            }
            replicas.add(new ReplicaStatus(replica.id(), replica.role(), replica.index(), replica.host(), state, 0,
                    mark.exitCode(), reason, mark.startedAt(), mark.finishedAt()));
        }
        return replicas;
    }

    private static String nodes(Tracked job) {
        return String.join(",", job.components().stream().map(SlurmJobInfo::nodes).filter(n -> !n.isEmpty()).toList());
    }

    private static JobStatus status(Tracked job, JobPhase phase, String reason, String message, Instant started,
                                    Instant finished, List<ReplicaStatus> replicas) {
        JobPlan plan = job.plan();
        return new JobStatus(phase, reason, message, job.createdAt(), started, finished, null,
                RoleCounts.of(plan.pservers().count(), replicas.stream().filter(r -> r.role() == Role.PSERVER).toList()),
                RoleCounts.of(plan.trainers().count(), replicas.stream().filter(r -> r.role() == Role.TRAINER).toList()),
                replicas);
    }
}

package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import java.util.List;

/** Slurm's reasons, states and exit codes in words a user can act on. */
final class SlurmWords {

    private SlurmWords() {
    }

    /** Why a job waits, from Slurm's pending reason ({@code squeue}'s {@code %r}). */
    static String pending(String reason) {
        String base = reason.split("[,(]")[0];
        String words = switch (base) {
            case "None" -> "Slurm has not yet looked at the job";
            case "Resources" -> "waiting for resources: no nodes have enough free CPUs, memory or GPUs for it yet";
            case "Priority" -> "waiting behind jobs of higher priority";
            case "Dependency" -> "waiting for the jobs it depends on";
            case "BeginTime" -> "waiting for its start time";
            case "ReqNodeNotAvail" -> "waiting for nodes it needs that are down, drained or reserved";
            case "PartitionTimeLimit" -> "its time limit is longer than the partition allows; it will not start";
            case "PartitionNodeLimit" -> "it needs more nodes than the partition allows; it will not start";
            case "PartitionDown", "PartitionInactive" -> "waiting for its partition, which is down";
            case "JobHeldUser", "JobHeldAdmin" -> "held: it starts once released (scontrol release)";
            case "BadConstraints" -> "no node has what it asks for; it will not start";
            case "Reservation" -> "waiting for its reservation";
            case "NodeDown" -> "waiting: a node it was given is down";
            case "launch failed requeued held" -> "held after a failed launch";
            default -> base.startsWith("QOS") || base.startsWith("Assoc")
                    ? "waiting: a limit of its account or QOS is reached"
                    : "waiting";
        };
        return words + " (Slurm: " + reason + ")";
    }

    static String minutes(long minutes) {
        return minutes == 1 ? "1 minute" : minutes + " minutes";
    }

    /** A one-word reason for a final Slurm state without a better explanation. */
    static String stateReason(String state) {
        return switch (state) {
            case "PREEMPTED" -> "Preempted";
            case "BOOT_FAIL" -> "NodeBootFailed";
            case "DEADLINE" -> "Deadline";
            default -> "Failed";
        };
    }

    static String ended(String state, List<SlurmJobInfo> components) {
        SlurmJobInfo first = components.get(0);
        return switch (state) {
            case "PREEMPTED" -> "Slurm preempted the job for one of higher priority";
            case "BOOT_FAIL" -> "a node of the job failed to boot";
            case "DEADLINE" -> "the job could not finish before its deadline";
            default -> "the job ended " + state + " (Slurm: " + first.reason() + ", batch step exit code "
                    + first.exitCode() + (first.signal() > 0 ? ", signal " + first.signal() : "") + ")";
        };
    }
}

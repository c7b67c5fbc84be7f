package io.paddlejobs.backend.local.record;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.schedule.GpuAssignment;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.DebugHold;
import io.paddlejobs.planning.JobRequest;
import java.time.Instant;
import java.util.Map;

/**
 * What is kept on disk of a job: the request as the user gave it and what this backend decided
 * (the first port, once allocated), its status, and its processes. The plan is worked out again
 * from these when the record is read, so a record holds no copy of the environment per replica
 * and stays about as small as the request.
 *
 * @param port      the allocated first port; {@code null} while the job was queued
 * @param processes by replica id, to stop leftovers after a crash
 * @param restartAt when the job's next attempt starts, while it waits to be started again after a failure
 *                  (its count of restarts is in the status): a service restarted meanwhile waits for the rest
 *                  of the backoff and starts that attempt once
 * @param gpus      the GPUs each replica was given, which a restart of the job asks for again
 * @param hold      its failed attempt held for {@code debug_hold}, while it is: a service restarted meanwhile ends
 *                  the hold as the attempt would have ended (its processes, and commands run in them, are gone)
 */
public record JobRecord(JobRequest request, String namespace, Integer port, JobStatus status,
                 Map<String, ReplicaProcess.ProcessRef> processes, Instant restartAt, GpuAssignment gpus,
                 DebugHold hold) {

    public JobRecord {
        processes = processes == null ? Map.of() : Map.copyOf(processes);
        gpus = gpus == null ? GpuAssignment.NONE : gpus;
    }

    /** A job not held. */
    public JobRecord(JobRequest request, String namespace, Integer port, JobStatus status,
              Map<String, ReplicaProcess.ProcessRef> processes, Instant restartAt, GpuAssignment gpus) {
        this(request, namespace, port, status, processes, restartAt, gpus, null);
    }

    /** A job that waits for no restart and holds no GPUs (as records from before either were written). */
    public JobRecord(JobRequest request, String namespace, Integer port, JobStatus status,
              Map<String, ReplicaProcess.ProcessRef> processes) {
        this(request, namespace, port, status, processes, null, GpuAssignment.NONE);
    }

    /** A job that holds no GPUs. */
    public JobRecord(JobRequest request, String namespace, Integer port, JobStatus status,
              Map<String, ReplicaProcess.ProcessRef> processes, Instant restartAt) {
        this(request, namespace, port, status, processes, restartAt, GpuAssignment.NONE);
    }
}

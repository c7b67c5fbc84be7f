package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.record.JobRecord;
import io.paddlejobs.backend.local.schedule.GpuAssignment;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import java.time.Instant;
import java.util.Map;

/** Records a service that died mid-run leaves behind. */
final class CrashedRecords {

    private CrashedRecords() {
    }

    /** Running, every replica too, holding these GPUs, with {@code process} as its first trainer's live process. */
    static JobRecord running(JobPlan plan, Process process, GpuAssignment gpus) {
        Instant now = Instant.now();
        var replicas = plan.replicas().stream()
                .map(r -> new ReplicaStatus(r.id(), r.role(), r.index(), r.host(), ReplicaState.RUNNING, 0, null, null,
                        now, null, gpus.visibleIds(r.id())))
                .toList();
        int pservers = plan.pservers().count();
        int trainers = plan.trainers().count();
        var status = new JobStatus(JobPhase.RUNNING, null, null, now, now, null, null,
                new RoleCounts(pservers, 0, pservers, 0, 0), new RoleCounts(trainers, 0, trainers, 0, 0), replicas);
        var ref = new ReplicaProcess.ProcessRef(process.pid(), process.toHandle().info().startInstant().orElse(null));
        return new JobRecord(plan.spec(), plan.namespace(), plan.ports().first(), status, Map.of("trainer-0", ref), null,
                gpus);
    }
}

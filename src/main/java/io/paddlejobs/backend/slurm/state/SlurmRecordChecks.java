package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import java.util.Objects;
import java.util.Optional;

/**
 * What a record read from the shared directory must hold before the backend trusts it (as the
 * local backend's record checks): every field the backend reads, a Slurm id, and the namespace
 * and name of the directory it lies in (a record copied or planted elsewhere is not that job's).
 * That the Slurm id is the job's own is checked against Slurm, by the backend.
 */
final class SlurmRecordChecks {

    private SlurmRecordChecks() {
    }

    /** Why the record cannot be used, or empty when it can. */
    static Optional<String> problem(SlurmJob job, String namespaceDir, String nameDir) {
        if (job == null) {
            return Optional.of("it is empty (null)");
        }
        JobPlan plan = job.plan();
        if (plan == null || plan.name() == null || plan.namespace() == null || plan.spec() == null
                || plan.replicas() == null || plan.ports() == null || plan.pservers() == null || plan.trainers() == null) {
            return Optional.of("it has no plan with a name, a namespace, roles, ports and replicas");
        }
        if (!Objects.equals(plan.namespace(), namespaceDir) || !Objects.equals(plan.name(), nameDir)) {
            return Optional.of("it names job %s/%s but lies in %s/%s"
                    .formatted(plan.namespace(), plan.name(), namespaceDir, nameDir));
        }
        for (Replica replica : plan.replicas()) {
            if (replica == null || replica.role() == null || replica.env() == null) {
                return Optional.of("a replica of its plan has no role or environment");
            }
        }
        if (job.slurmId() <= 0) {
            return Optional.of("it has no Slurm job id");
        }
        if (job.createdAt() == null) {
            return Optional.of("it has no creation time");
        }
        JobStatus status = job.status();
        if (status == null || status.phase() == null || status.createdAt() == null || status.replicas() == null) {
            return Optional.of("it has no status with a phase and a creation time");
        }
        for (ReplicaStatus replica : status.replicas()) {
            if (replica == null || replica.id() == null || replica.state() == null) {
                return Optional.of("a replica's status has no id or state");
            }
        }
        return Optional.empty();
    }
}

package io.paddlejobs.backend.local.record;

import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * What a record read from disk must hold before the backend trusts it: every field the backend
 * reads, and the namespace and name of the directory it lies in (a record copied or planted
 * elsewhere is not that job's).
 */
final class RecordChecks {

    private RecordChecks() {
    }

    /** Why the record cannot be used, or empty when it can. */
    static Optional<String> problem(JobRecord record, String namespaceDir, String nameDir) {
        if (record == null) {
            return Optional.of("it is empty (null)");
        }
        if (record.request() == null || record.request().name() == null || record.request().code().entryPoint() == null) {
            return Optional.of("it has no request with a name and an entry point");
        }
        if (!Objects.equals(record.namespace(), namespaceDir) || !record.request().name().equals(nameDir)) {
            return Optional.of("it names job %s/%s but lies in %s/%s"
                    .formatted(record.namespace(), record.request().name(), namespaceDir, nameDir));
        }
        JobStatus status = record.status();
        if (status == null || status.phase() == null || status.createdAt() == null) {
            return Optional.of("it has no status with a phase and a creation time");
        }
        for (ReplicaStatus replica : status.replicas()) {
            if (replica == null || replica.id() == null || replica.state() == null) {
                return Optional.of("a replica's status has no id or state");
            }
        }
        if (record.processes().entrySet().stream().anyMatch(e -> e.getKey() == null || e.getValue() == null)) {
            return Optional.of("a recorded process has no id or pid");
        }
        return Optional.empty();
    }
}

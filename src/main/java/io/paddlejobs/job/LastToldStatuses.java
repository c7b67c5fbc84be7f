package io.paddlejobs.job;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The status each watched job had when its watchers were last told, by namespace: what the
 * {@link JobFeed} compares each look against, so that watchers hear of changes only. Touched by
 * the feed's thread alone.
 */
final class LastToldStatuses {

    private final Map<String, Map<String, JobStatus>> byNamespace = new HashMap<>();

    /** @return null when none was told (or the job was told gone) */
    JobStatus of(JobKey key) {
        return byNamespace.getOrDefault(key.namespace(), Map.of()).get(key.name());
    }

    /** @param status null: the job is gone */
    void told(JobKey key, JobStatus status) {
        if (status == null) {
            forget(key);
        } else {
            byNamespace.computeIfAbsent(key.namespace(), ns -> new HashMap<>()).put(key.name(), status);
        }
    }

    /** For a job nobody was told of yet: its status now, which is no change to tell. */
    void toldIfNew(JobKey key, JobStatus status) {
        byNamespace.computeIfAbsent(key.namespace(), ns -> new HashMap<>()).putIfAbsent(key.name(), status);
    }

    void forget(JobKey key) {
        keepOnly(key.namespace(), name -> !name.equals(key.name()));
    }

    void keepOnly(String namespace, Predicate<String> names) {
        Map<String, JobStatus> statuses = byNamespace.get(namespace);
        if (statuses != null) {
            statuses.keySet().removeIf(names.negate());
            if (statuses.isEmpty()) {
                byNamespace.remove(namespace);
            }
        }
    }
}

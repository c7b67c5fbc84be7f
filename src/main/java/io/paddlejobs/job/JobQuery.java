package io.paddlejobs.job;

import java.util.Map;

/**
 * Which jobs a list wants.
 *
 * @param phase  only jobs in this phase; {@code null} for all
 * @param labels only jobs carrying every one of these labels
 */
public record JobQuery(String namespace, JobPhase phase, Map<String, String> labels, int limit, String continueToken) {

    public boolean matches(Job job) {
        return (phase == null || job.status().phase() == phase)
                && job.plan().spec().placement().labels().entrySet().containsAll(labels.entrySet());
    }
}

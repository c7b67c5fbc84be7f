package io.paddlejobs.job;

import java.time.Instant;
import java.util.Map;

/**
 * Which jobs a list wants.
 *
 * @param phase         only jobs in this phase; {@code null} for all
 * @param labels        only jobs carrying every one of these labels
 * @param createdSince  only jobs created at or after this time; {@code null}: no lower bound
 * @param createdBefore only jobs created before this time; {@code null}: no upper bound. A job whose
 *                      creation time is not known yet (just submitted) is within any range
 */
public record JobQuery(String namespace, JobPhase phase, Map<String, String> labels, Instant createdSince,
                       Instant createdBefore, int limit, String continueToken) {

    /** Every job of the namespace whatever its creation time, as far as the phase and labels allow. */
    public JobQuery(String namespace, JobPhase phase, Map<String, String> labels, int limit, String continueToken) {
        this(namespace, phase, labels, null, null, limit, continueToken);
    }

    public boolean matches(Job job) {
        Instant created = job.status().createdAt();
        return (phase == null || job.status().phase() == phase)
                && job.plan().spec().placement().labels().entrySet().containsAll(labels.entrySet())
                && (created == null || createdSince == null || !created.isBefore(createdSince))
                && (created == null || createdBefore == null || created.isBefore(createdBefore));
    }
}

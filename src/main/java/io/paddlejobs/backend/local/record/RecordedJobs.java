package io.paddlejobs.backend.local.record;

import io.paddlejobs.backend.local.LocalJob;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.Site;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The jobs of a previous run, read back from their records: each record's request is planned
 * again (and moved to the port it was given, if it had one). A record whose request no longer
 * plans is moved aside like any unusable one.
 */
public final class RecordedJobs {

    private RecordedJobs() {
    }

    /**
     * Every usable job on record, oldest first: the order in which the queued ones were submitted.
     * Planning is pure, so records are planned side by side.
     */
    public static List<LocalJob> readBack(JobRecordStore store, JobPlanner planner, Site site, Clock clock,
                                   LocalJob.Listeners listeners) {
        return store.loadAll().parallelStream()
                .map(stored -> restore(stored, store, planner, site, clock, listeners))
                .flatMap(Optional::stream)
                .sorted(Comparator.comparing((LocalJob job) -> job.snapshot().status().createdAt()))
                .toList();
    }

    private static Optional<LocalJob> restore(JobRecordStore.Stored stored, JobRecordStore store, JobPlanner planner,
                                              Site site, Clock clock, LocalJob.Listeners listeners) {
        JobRecord record = stored.record();
        try {
            JobPlan plan = planner.plan(record.request(), record.namespace(), site);
            if (record.port() != null) {
                plan = planner.onPorts(plan, record.port(), site);
            }
            plan = record.gpus().applyTo(plan);
            return Optional.of(LocalJob.restore(plan, record, clock, listeners));
        } catch (RuntimeException e) {
            store.quarantine(stored.dir(), "its request no longer plans: " + e.getMessage());
            return Optional.empty();
        }
    }
}

package io.paddlejobs.backend.slurm;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobPlan;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the backend's unfinished jobs up to date: every interval, one call to Slurm for all of
 * them, then each job's marks from the shared directory. A change of phase (or the placement
 * arriving) is written to the job's record; every change is told to the backend's listeners.
 */
final class StatusPoller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StatusPoller.class);

    private final ConcurrentHashMap<JobKey, SlurmJob> jobs;
    private final SlurmClient slurm;
    private final SlurmRecords records;
    private final Clock clock;
    private final Consumer<JobKey> changed;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "slurm-poller");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean slurmAnswered = true;
    /** The jobs whose last update failed, so that a job failing at every poll is logged once. */
    private final Set<JobKey> failing = ConcurrentHashMap.newKeySet();

    private StatusPoller(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmClient slurm, SlurmRecords records, Clock clock,
                         Consumer<JobKey> changed) {
        this.jobs = jobs;
        this.slurm = slurm;
        this.records = records;
        this.clock = clock;
        this.changed = changed;
    }

    /** @param changed told the key of each job a poll changed, once the change is in {@code jobs} */
    static StatusPoller start(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmClient slurm, SlurmRecords records,
                              Clock clock, Duration interval, Consumer<JobKey> changed) {
        StatusPoller poller = new StatusPoller(jobs, slurm, records, clock, changed);
        poller.executor.scheduleWithFixedDelay(poller::pollQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return poller;
    }

    /** Whatever a poll throws, the next one runs: an escaping throwable would end the schedule, silently. */
    private void pollQuietly() {
        try {
            poll();
        } catch (Throwable e) {
            log.error("Polling Slurm failed; the next poll is in one interval", e);
        }
    }

    void poll() {
        List<SlurmJob> active = jobs.values().stream().filter(job -> job.slurmId() > 0 && !job.isFinished()).toList();
        if (active.isEmpty()) {
            return;
        }
        Map<Long, List<SlurmJobInfo>> bySubmittedId;
        try {
            bySubmittedId = slurm.jobs().stream().collect(Collectors.groupingBy(SlurmJobInfo::submittedId));
            slurmAnswered = true;
        } catch (SlurmException e) {
            if (slurmAnswered) {
                log.warn("Slurm did not answer; the status of {} jobs is as last seen: {}", active.size(), e.getMessage());
            }
            slurmAnswered = false;
            return;
        }
        for (SlurmJob job : active) {
            // Each job on its own: what one job's files do to its update holds up no other job's.
            try {
                update(job, ownComponents(job, bySubmittedId.getOrDefault(job.slurmId(), List.of())));
                failing.remove(job.key());
            } catch (RuntimeException e) {
                if (failing.add(job.key())) {
                    log.warn("Job {} cannot be brought up to date, its status stays as last seen: {}", job.key(), e.toString());
                }
            }
        }
        failing.retainAll(jobs.keySet());
    }

    /** Slurm's components under the job's id, if that id is the job's own (its Slurm job bears the job's name). */
    private static List<SlurmJobInfo> ownComponents(SlurmJob job, List<SlurmJobInfo> components) {
        String name = BatchScripts.jobName(job.plan());
        return components.stream().allMatch(component -> component.name().equals(name)) ? components : List.of();
    }

    private void update(SlurmJob job, List<SlurmJobInfo> components) {
        ReplicaMarks marks = records.files(job.key()).marks(job.plan());
        JobPlan plan = job.plan();
        boolean placed = job.placed();
        if (!placed && marks.placement() != null && marks.placement().covers(plan)) {
            plan = marks.placement().apply(plan);
            placed = true;
        }
        var tracked = new SlurmStatusMapper.Tracked(plan, job.createdAt(), job.cancelRequested(),
                List.copyOf(components), marks);
        // An unfinished job Slurm does not list any more ended while nobody looked (the service was down).
        JobStatus status = components.isEmpty()
                ? SlurmStatusMapper.forgotten(tracked, clock.instant())
                : SlurmStatusMapper.map(tracked);
        SlurmJob updated = job.with(plan, placed, status);
        if (updated.equals(job) || !jobs.replace(job.key(), job, updated)) {
            return; // nothing new, or cancelled or deleted meanwhile
        }
        if (placed != job.placed() || status.phase() != job.status().phase()) {
            records.save(updated);
        }
        changed.accept(job.key());
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}

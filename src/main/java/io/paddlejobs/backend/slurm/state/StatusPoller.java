package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.StepSightings;
import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.client.SlurmException;
import io.paddlejobs.backend.slurm.client.SlurmJobInfo;
import io.paddlejobs.backend.slurm.script.BatchScripts;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.attempt.Ending;
import io.paddlejobs.job.attempt.StallWatch;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * them, then each job's marks from the shared directory. An attempt that ended is decided on by
 * {@link SlurmRestarts} (the job ends, or waits out a backoff), and a job whose backoff has passed
 * gets its next attempt ({@link NextAttempts}); a replica that failed while its Slurm job runs holds the attempt
 * where the request has a {@code debug_hold} ({@link SlurmHolds}). A change of phase or reason, a restart (or the
 * placement arriving) is written to the job's record; every change is told to the backend's listeners.
 */
public final class StatusPoller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StatusPoller.class);

    private final ConcurrentHashMap<JobKey, SlurmJob> jobs;
    private final SlurmClient slurm;
    private final SlurmRecords records;
    private final Clock clock;
    private final Consumer<JobKey> changed;
    private final NextAttempts next;
    private final RestartBackoff backoff;
    /** Stops a Slurm job whose attempt was failed by its stall; removes deleted jobs' files once Slurm is done with them. */
    private final SlurmStops stops;
    private final StepSightings steps;
    private final StallStacks atStall;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "slurm-poller");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean slurmAnswered = true;
    /** The jobs whose last update failed, so that a job failing at every poll is logged once. */
    private final Set<JobKey> failing = ConcurrentHashMap.newKeySet();

    private StatusPoller(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmClient slurm, SlurmRecords records, Clock clock,
                         Consumer<JobKey> changed, NextAttempts next, RestartBackoff backoff, SlurmStops stops,
                         StepSightings steps, StallStacks atStall) {
        this.jobs = jobs;
        this.slurm = slurm;
        this.records = records;
        this.clock = clock;
        this.changed = changed;
        this.next = next;
        this.backoff = backoff;
        this.stops = stops;
        this.steps = steps;
        this.atStall = atStall;
    }

    /** Takes a job's stacks as a stall is seen, then runs {@code then}; on a thread of its own, as it takes a while. */
    @FunctionalInterface
    public interface StallStacks {
        void take(SlurmJob asItHung, Runnable then);
    }

    /**
     * @param changed     told the key of each job a poll changed, once the change is in {@code jobs}
     * @param stops   stops a Slurm job whose attempt was failed by its stall, and removes deleted jobs' files
     * @param steps   when each trainer last reported a new step (the stall judgement's progress)
     * @param atStall takes the stacks of a job whose stall is seen, before the stall's stop (where it ends the attempt)
     */
    public static StatusPoller start(ConcurrentHashMap<JobKey, SlurmJob> jobs, SlurmClient slurm, SlurmRecords records,
                              Clock clock, Duration interval, Consumer<JobKey> changed, NextAttempts next,
                              RestartBackoff backoff, SlurmStops stops, StepSightings steps, StallStacks atStall) {
        StatusPoller poller = new StatusPoller(jobs, slurm, records, clock, changed, next, backoff, stops, steps, atStall);
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
        if (active.isEmpty() && !stops.removalsPending()) {
            return;
        }
        Map<Long, List<SlurmJobInfo>> bySubmittedId;
        try {
            List<SlurmJobInfo> listed = slurm.jobs();
            stops.removeStopped(listed);
            bySubmittedId = listed.stream().collect(Collectors.groupingBy(SlurmJobInfo::submittedId));
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
                if (job.restartAt() != null) {
                    next.submitIfDue(job, clock.instant()); // the last attempt has ended: nothing of Slurm's to map
                } else {
                    update(job, ownComponents(job, bySubmittedId.getOrDefault(job.slurmId(), List.of())));
                }
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
        ReplicaMarks marks = records.files(job.key()).marks(job.plan(), job.attempt());
        JobPlan plan = job.plan();
        boolean placed = job.placed();
        if (!placed && marks.placement() != null && marks.placement().covers(plan)) {
            plan = marks.placement().apply(plan);
            placed = true;
        }
        var tracked = new SlurmStatusMapper.Tracked(plan, job.createdAt(), job.cancelRequested(),
                List.copyOf(components), marks);
        // An unfinished job Slurm does not list any more ended while nobody looked (the service was down).
        SlurmStatusMapper.Seen seen = components.isEmpty()
                ? SlurmStatusMapper.seeForgotten(tracked, clock.instant())
                : SlurmStatusMapper.see(tracked);
        JobStatus status = withItsLog(seen, job.attempt());
        SlurmJob current = job.with(plan, placed, job.status());
        Instant now = clock.instant();
        // A held attempt (debug_hold) has failed already: its silence is expected, and the hold's end decides.
        Optional<SlurmHolds.Held> held = status.phase().isFinished() ? Optional.empty()
                : SlurmHolds.of(current, SlurmRestarts.during(current, status), backoff, now);
        Optional<String> silence = held.isPresent() ? Optional.empty()
                : SlurmStalls.silence(current, status, records.files(job.key()), steps, now);
        boolean stalled = silence.isPresent() && SlurmStalls.failsTheAttempt(current);
        // Once per stall: a stall that is only a warning is seen again at every poll until a trainer speaks.
        boolean stallSeen = silence.isPresent() && !StallWatch.STALLED.equals(job.status().reason());
        SlurmJob updated;
        if (status.phase().isFinished()) {
            updated = SlurmRestarts.ended(current, status, seen.ending(), backoff, now);
        } else if (held.isPresent()) {
            if (held.get().over()) {
                records.files(job.key()).endHold(job.attempt()); // its task exits, and the Slurm job ends as it would have
            }
            updated = current.with(held.get().status(), null);
        } else if (stalled) {
            updated = SlurmRestarts.ended(current, StallWatch.failed(status, silence.get(), now),
                    Ending.stalled(silence.get()), backoff, now);
        } else {
            JobStatus shown = SlurmRestarts.during(current, status);
            updated = current.with(silence.map(words -> StallWatch.warned(shown, words)).orElse(shown), null);
        }
        if (updated.equals(job) || !jobs.replace(job.key(), job, updated)) {
            return; // nothing new, or cancelled or deleted meanwhile
        }
        if (stallSeen) {
            // Its stacks first, as it hangs; then, where the stall ends the attempt, its replicas are stopped, gracefully.
            long slurmId = job.slurmId();
            atStall.take(current, stalled ? () -> stops.stopAttempt(slurmId) : () -> { });
        } else if (stalled) {
            stops.stopAttempt(job.slurmId());
        }
        JobStatus was = job.status();
        JobStatus is = updated.status();
        if (placed != job.placed() || is.phase() != was.phase() || !Objects.equals(is.reason(), was.reason())
                || !Objects.equals(updated.restartAt(), job.restartAt())) {
            records.saveIfCurrent(jobs, updated);
        }
        changed.accept(job.key());
    }

    /**
     * A replica's own exit failed the attempt: the message ends with the query of that replica's log of this attempt,
     * as on the local backend (each attempt's logs are kept apart), so that the attempt's message links its own log.
     */
    private static JobStatus withItsLog(SlurmStatusMapper.Seen seen, int attempt) {
        JobStatus status = seen.status();
        Ending ending = seen.ending();
        if (status.phase() != JobPhase.FAILED || ending == null || ending.kind() != Ending.Kind.EXITED
                || ending.role() == null) {
            return status;
        }
        return status.with(status.phase(), status.reason(), status.message() + ". See its log: role=%s&index=%d&attempt=%d"
                .formatted(ending.role().label(), ending.index(), attempt));
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}

package io.paddlejobs.sweeps;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobNotFoundException;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobService;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.security.Tenant;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The sweeps of the service: create (plan every trial, then keep it for a driver to run), read, list,
 * cancel and delete. Creating starts nothing itself: the replica that claims the sweep starts its trials.
 */
final class Sweeps {

    /** How many earlier jobs of the same program are looked at for the metrics it reports. */
    private static final int EARLIER_JOBS_LOOKED_AT = 20;

    private final SweepStore store;
    private final SweepPlanner planner;
    private final SweepDriver driver;
    private final JobService jobs;
    private final MetricsCollector metrics;
    private final JobRequests requests;
    private final Clock clock;

    Sweeps(SweepStore store, SweepPlanner planner, SweepDriver driver, JobService jobs, MetricsCollector metrics,
           JobRequests requests, Clock clock) {
        this.store = store;
        this.planner = planner;
        this.driver = driver;
        this.jobs = jobs;
        this.metrics = metrics;
        this.requests = requests;
        this.clock = clock;
    }

    /** What a create did: made the sweep, or found the identical one (a retry), which it returns as it is. */
    record Created(SweepRecord sweep, boolean created) {
    }

    Created create(SweepRequest given, String namespace, Tenant owner) {
        SweepRequest request = SweepPlanner.resolve(given);
        SweepKey key = new SweepKey(namespace, request.name());
        Optional<SweepRecord> existing = store.find(key);
        if (existing.isPresent()) {
            return identical(existing.get(), given);
        }
        SweepPlanner.Planned planned = planner.plan(request, namespace, owner);
        Set<String> live = jobs.live(namespace).stream().map(job -> job.plan().name()).collect(Collectors.toSet());
        planned.trials().stream().map(TrialState::job).filter(live::contains).findFirst().ifPresent(taken -> {
            throw SweepConflictException.trialTaken(key, taken);
        });
        List<String> notes = new ArrayList<>(planned.warnings());
        unreportedObjective(request, namespace).ifPresent(notes::add);
        SweepRecord sweep = new SweepRecord(namespace, request.name(), clock.instant(), null, null, JobPhase.PENDING,
                request, owner, requests.baseUrl(), SweepState.planned(planned.trials(), notes), null, Instant.EPOCH);
        if (!store.insert(sweep)) {
            return identical(store.find(key).orElseThrow(() -> SweepConflictException.nameTaken(key)), given);
        }
        driver.wake();
        return new Created(sweep, true);
    }

    private static Created identical(SweepRecord existing, SweepRequest given) {
        SweepRequest asGiven = given.resolved(existing.name(), given.seed() != null ? given.seed() : existing.request().seed());
        if (!existing.request().equals(asGiven)) {
            throw SweepConflictException.nameTaken(existing.key());
        }
        return new Created(existing, false);
    }

    /**
     * A warning when earlier jobs of the namespace that ran the template's entry point reported metrics,
     * none of them the objective's: most likely a misspelt name. Nothing is said when none reported any.
     */
    private Optional<String> unreportedObjective(SweepRequest request, String namespace) {
        if (request.objective() == null) {
            return Optional.empty();
        }
        Object entryPoint = request.template().get("entry_point");
        Set<String> reported = new java.util.TreeSet<>();
        jobs.live(namespace).stream()
                .filter(job -> job.status().phase().isFinished() && job.plan().spec().code().entryPoint().equals(entryPoint))
                .limit(EARLIER_JOBS_LOOKED_AT)
                .forEach(job -> reported.addAll(metrics.read(job, 0).metrics().keySet()));
        if (reported.isEmpty() || reported.contains(request.objective().metric())) {
            return Optional.empty();
        }
        return Optional.of("earlier jobs running " + entryPoint + " reported " + String.join(", ", reported) + ", not "
                + request.objective().metric() + ": is objective.metric the name the trainers print?");
    }

    SweepRecord get(SweepKey key) {
        return store.find(key).orElseThrow(() -> new SweepNotFoundException(key));
    }

    List<SweepRecord> list(String namespace, int limit) {
        return store.list(namespace, limit);
    }

    /** A trial's job as this replica runs it, for a read that shows trials fresher than the sweep's last look. */
    Optional<Job> live(SweepRecord sweep, TrialState trial) {
        return trial.unfinished() ? jobs.findLive(new JobKey(sweep.namespace(), trial.job())) : Optional.empty();
    }

    /** Cancels an unfinished sweep: no trial starts after this returns, and its running trials are cancelled. */
    SweepRecord cancel(SweepKey key) {
        return driver.locked(key, () -> {
            SweepRecord sweep = get(key);
            if (!sweep.finished()) {
                store.cancel(key, clock.instant());
            }
            driver.context().cancelLiveTrials(sweep);
            return get(key);
        });
    }

    /** Cancels the sweep, then removes its trials' jobs (as a job's delete removes them) and itself. */
    void delete(SweepKey key) {
        driver.locked(key, () -> {
            SweepRecord sweep = get(key);
            store.cancel(key, clock.instant());
            for (TrialState trial : sweep.state().trials()) {
                if (!trial.submitted() && jobs.findLive(new JobKey(key.namespace(), trial.job())).isEmpty()) {
                    continue;
                }
                try {
                    jobs.delete(new JobKey(key.namespace(), trial.job()));
                } catch (JobNotFoundException never) {
                    // a trial not started, or deleted already
                }
            }
            store.delete(key);
            return null;
        });
    }
}

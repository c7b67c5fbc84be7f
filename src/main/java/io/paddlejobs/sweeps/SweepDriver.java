package io.paddlejobs.sweeps;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobNotFoundException;
import io.paddlejobs.job.JobService;
import io.paddlejobs.metrics.MetricsCollector;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the sweeps this replica holds a claim on, one look every {@code look-every} on one thread of its
 * own: it claims those nobody drives (new ones, and those whose driver's lease lapsed: a crash), and
 * {@link SweepRun#step steps} each it holds. On a normal stop it gives its claims up, so that another
 * replica takes them over at once.
 *
 * <p>Who runs beside whom: the driver's thread alone steps a sweep; a cancel or delete on a request thread
 * takes the same lock of the sweep ({@link #locked}) first, and writes to the store, which every step reads
 * again, so a cancelled sweep starts no trial after its cancel returned.
 */
final class SweepDriver implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SweepDriver.class);

    /** What a sweep's run needs of this replica. */
    record Context(SweepStore store, JobService jobs, MetricsCollector metrics, JobRequests requests, Clock clock,
                   Duration lease, String me) {

        JobService.Submission submit(SweepRecord sweep, TrialState trial) {
            JobRequests.Reading reading = requests.read(TrialDocuments.of(sweep.request().template(), sweep.name(),
                    trial.number(), sweep.request().parameters(), trial.parameters()));
            if (!reading.violations().isEmpty()) {
                throw new SweepRejectedException(reading.violations());
            }
            return requests.submit(reading.request(), sweep.namespace(), sweep.owner(), sweep.baseUrl());
        }

        /** Cancels every trial of the sweep this replica runs and has not finished, written down or not. */
        void cancelLiveTrials(SweepRecord sweep) {
            for (TrialState trial : sweep.state().trials()) {
                JobKey key = new JobKey(sweep.namespace(), trial.job());
                if (jobs.findLive(key).filter(job -> !job.status().phase().isFinished()).isPresent()) {
                    try {
                        jobs.cancel(key);
                    } catch (JobNotFoundException gone) {
                        // deleted meanwhile: nothing runs
                    }
                }
            }
        }
    }

    private final Context context;
    private final Duration lookEvery;
    private final Map<SweepKey, SweepRun> held = new ConcurrentHashMap<>();
    private final Object[] locks = Stream.generate(Object::new).limit(64).toArray();
    /** The regular looks while started; null while stopped. */
    private ScheduledFuture<?> looking;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread driver = new Thread(task, "sweeps");
        driver.setDaemon(true);
        return driver;
    });

    SweepDriver(SweepStore store, JobService jobs, MetricsCollector metrics, JobRequests requests, Clock clock,
                SweepsProperties properties) {
        this.context = new Context(store, jobs, metrics, requests, clock, properties.lease(), replicaId());
        this.lookEvery = properties.lookEvery();
    }

    /** Looks every {@code look-every}; again after a {@link #stop} (a context that was paused goes on). */
    synchronized void start() {
        if (looking == null) {
            looking = thread.scheduleWithFixedDelay(this::look, 0, lookEvery.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    Context context() {
        return context;
    }

    /** Looks at once (a sweep was just created), besides the regular looks. */
    void wake() {
        thread.execute(this::look);
    }

    /** Runs {@code action} under the lock the driver steps the sweep under. */
    <T> T locked(SweepKey key, Supplier<T> action) {
        synchronized (locks[Math.floorMod(key.hashCode(), locks.length)]) {
            return action.get();
        }
    }

    private void look() {
        try {
            claim();
            for (SweepRun run : held.values()) {
                step(run);
            }
        } catch (RuntimeException e) {
            log.warn("Sweeps: a look failed ({}); tried again in {}", e.toString(), lookEvery);
        }
    }

    private void claim() {
        Instant now = context.clock().instant();
        for (SweepKey key : context.store().claimable(context.me(), now)) {
            if (!held.containsKey(key) && context.store().claim(key, context.me(), now, now.plus(context.lease()))) {
                log.info("Sweep {}: driven by this replica ({})", key, context.me());
                held.put(key, new SweepRun(key, context, now.plus(context.lease())));
            }
        }
    }

    private void step(SweepRun run) {
        SweepKey key = run.key();
        try {
            boolean still = locked(key, () -> run.step(context.clock().instant()));
            if (!still) {
                held.remove(key);
            }
        } catch (RuntimeException e) {
            log.warn("Sweep {}: a look failed ({}); tried again in {}", key, e.toString(), lookEvery);
        }
    }

    /** Stops looking, once a look under way has ended, and gives every claim up; {@link #start} looks again. */
    synchronized void stop() throws InterruptedException {
        if (looking == null) {
            return;
        }
        looking.cancel(false);
        looking = null;
        try {
            thread.submit(() -> { }).get(30, TimeUnit.SECONDS); // after the look under way, if any
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            log.warn("Sweeps: a look did not end in 30 s ({}); its claims are given up anyway", e.toString());
        }
        held.clear();
        try {
            context.store().release(context.me());
        } catch (RuntimeException e) {
            log.warn("Sweeps: could not give up this replica's claims ({}); others take them when the lease lapses", e.toString());
        }
    }

    /** Stops looking for good. */
    @Override
    public void close() throws InterruptedException {
        stop();
        thread.shutdown();
        thread.awaitTermination(30, TimeUnit.SECONDS);
    }

    /** This process, told apart from another on the same host and from an earlier one with the same pid. */
    private static String replicaId() {
        String host = ManagementFactory.getRuntimeMXBean().getName(); // pid@host
        return host + "/" + UUID.randomUUID().toString().substring(0, 8);
    }
}

package io.paddlejobs.packages;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the packages that no unfinished job names and that nothing used (a submit, a start, a
 * pod's fetch, an upload of the same bytes) for {@code expire-after}: every tenth of {@code expire-after} (at most every 10 minutes),
 * on one thread of its own.
 */
final class PackageSweep implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PackageSweep.class);

    private final PackageStore store;
    private final Function<String, Set<String>> inUse;
    private final Duration expireAfter;
    private final Clock clock;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "package-sweep");
        thread.setDaemon(true);
        return thread;
    });

    /** @param inUse a namespace's packages that unfinished jobs name */
    PackageSweep(PackageStore store, Function<String, Set<String>> inUse, Duration expireAfter, Clock clock) {
        this.store = store;
        this.inUse = inUse;
        this.expireAfter = expireAfter;
        this.clock = clock;
    }

    PackageSweep every(Duration interval) {
        timer.scheduleWithFixedDelay(this::sweepQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** One pass over every namespace; how many packages it deleted. */
    int sweep() throws IOException {
        Instant cutoff = clock.instant().minus(expireAfter);
        int deleted = 0;
        for (String namespace : store.namespaces()) {
            Set<String> used = null; // asked only when something is old enough: listing jobs is the cost
            for (PackageStore.Kept kept : store.list(namespace)) {
                if (!kept.lastUsed().isBefore(cutoff)) {
                    continue;
                }
                used = used != null ? used : inUse.apply(namespace);
                if (!used.contains(kept.id()) && store.delete(namespace, kept.id())) {
                    log.info("Package {} of namespace {} expired: unused since {} (paddlejobs.packages.expire-after {})",
                            kept.id(), namespace, kept.lastUsed(), expireAfter);
                    deleted++;
                }
            }
        }
        return deleted;
    }

    /** A failed pass (a backend away) is logged and retried at the next interval: the timer must not stop. */
    private void sweepQuietly() {
        try {
            sweep();
        } catch (Exception | Error e) {
            log.warn("The package sweep failed; it runs again in the next interval", e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

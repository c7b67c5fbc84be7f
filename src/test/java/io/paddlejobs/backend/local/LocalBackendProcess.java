package io.paddlejobs.backend.local;

import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The local backend in a JVM of its own, under a storm of submits, for tests that kill it: what the
 * service's local backend does at start (it takes over what an earlier run left: {@link LocalJobBackend#recover}),
 * without Spring's start-up time. Prints {@link #READY} once it has, then three clients each submit a
 * job of one pserver and one trainer that run {@code sleep} until stopped, delete their previous one,
 * and wait for the new one to start, for ever; {@code submitted <name>} for each submit. The jobs of earlier
 * runs are deleted meanwhile.
 *
 * <p>Arguments: the data root, and a name for this run that its jobs' names start with.
 */
public final class LocalBackendProcess {

    static final String READY = "local backend ready";
    /** What the replicas run: {@code sleep} with this argument, which no other process here has. */
    static final String SLEEP_ARGUMENT = "3309";
    private static final int CLIENTS = 3;

    private LocalBackendProcess() {
    }

    public static void main(String[] args) {
        Path dataRoot = Path.of(args[0]);
        String run = args[1];
        var local = new LocalBackendFixture(LocalBackendFixture.properties(dataRoot, "max-running-jobs", CLIENTS), false);
        Runtime.getRuntime().addShutdownHook(new Thread(local::close)); // SIGTERM: a normal stop, as the service's
        System.out.println(READY);
        // What earlier runs left queued would hold the slots for good: removed, as a user would.
        new Thread(() -> local.backend.list(LocalBackendFixture.NAMESPACE).stream()
                .filter(job -> !job.plan().name().startsWith("r" + run + "-"))
                .forEach(job -> local.backend.delete(job.key())), "cleaner").start();
        for (int client = 0; client < CLIENTS; client++) {
            String prefix = "r" + run + "-c" + client + "-";
            Thread thread = new Thread(() -> storm(local, prefix), "client-" + client);
            thread.start();
        }
    }

    private static void storm(LocalBackendFixture local, String prefix) {
        for (int i = 0; ; i++) {
            String name = prefix + i;
            local.submit(name, "exec sleep " + SLEEP_ARGUMENT, 1, 1);
            System.out.println("submitted " + name);
            if (i > 0) {
                local.backend.delete(new JobKey(LocalBackendFixture.NAMESPACE, prefix + (i - 1)));
            }
            await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(10))
                    .until(() -> local.job(name).status().phase() != JobPhase.PENDING);
        }
    }
}

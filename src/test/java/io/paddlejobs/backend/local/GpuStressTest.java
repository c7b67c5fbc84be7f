package io.paddlejobs.backend.local;

import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thousand operations from ten clients at once on four fake GPUs: submits of 1- and 2-GPU jobs
 * (some failing and restarted), cancels and deletes of running and queued jobs, and a restart of the
 * service halfway, with jobs running and queued. Every replica writes to one log when it starts and
 * when it ends, with its devices ({@link DeviceLog}); from that log alone, no device was ever held by
 * two running replicas. About 50 s on a loaded two-core machine (tag {@code stress}).
 */
@Tag("stress")
class GpuStressTest {

    private static final int CLIENTS = 10;
    private static final int ROUNDS = 2;
    private static final int OPERATIONS = 1_000;

    @TempDir
    Path dir;

    @Test
    void aThousandConcurrentSubmitsCancelsDeletesAndRestartsNeverGiveOneGpuToTwoRunningReplicas() throws Exception {
        DeviceLog devices = new DeviceLog(dir.resolve("devices.log"));
        // Every replica ends at SIGTERM at once: a long grace period is never spent, so every end is logged.
        var properties = LocalBackendFixture.properties(dir.resolve("data"), "gpus", "0,1,2,3", "memory", "64GB",
                "cpus", 64, "max-running-jobs", 4, "stop-grace-period", "60s");
        var backoff = new RestartBackoff(Duration.ofMillis(100), Duration.ofMillis(200));
        AtomicInteger done = new AtomicInteger();
        List<String> submitted = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            // A new backend on the same data root each round: a restart of the service, with jobs queued and running.
            try (var local = new LocalBackendFixture(properties, backoff)) {
                ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
                List<Future<List<String>>> work = new ArrayList<>();
                for (int client = 0; client < CLIENTS; client++) {
                    int seed = round * CLIENTS + client;
                    work.add(clients.submit(() -> operate(local, devices, seed, OPERATIONS / ROUNDS / CLIENTS, done)));
                }
                for (Future<List<String>> names : work) {
                    submitted.addAll(names.get());
                }
                clients.shutdown();
                if (round == ROUNDS - 1) {
                    local.backend.list(LocalBackendFixture.NAMESPACE).forEach(job -> local.backend.cancel(job.key()));
                    await().atMost(DEADLINE).until(() -> local.backend.capacity().orElseThrow().inUse().gpus() == 0);
                }
            }
        }

        assertThat(done.get()).isEqualTo(OPERATIONS);
        assertThat(devices.sharedDevices()).as("GPUs held by two running replicas at once").isEmpty();
        assertThat(devices.lines().stream().filter(line -> line.startsWith("start ")).count())
                .as("replicas that ran (of %d jobs)", submitted.size()).isGreaterThan(100);
    }

    /** One client's share: submits, and cancels and deletes of its own jobs, drawn from its seed. */
    private static List<String> operate(LocalBackendFixture local, DeviceLog devices, int seed, int operations,
                                        AtomicInteger done) {
        Random random = new Random(seed);
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < operations; i++) {
            int draw = random.nextInt(10);
            if (draw < 4 || mine.isEmpty()) {
                String name = "c" + seed + "-" + i;
                local.backend.submit(local.plan(job(name, devices, random)));
                mine.add(name);
                if (random.nextInt(8) == 0) {
                    // Paced as a user who waits for a start: jobs then queue for GPUs, rather than for a round's end.
                    await().atMost(DEADLINE).until(() -> local.job(name).status().phase() != JobPhase.PENDING);
                }
            } else {
                JobKey key = new JobKey(LocalBackendFixture.NAMESPACE, mine.get(random.nextInt(mine.size())));
                if (draw < 7) {
                    local.backend.cancel(key);
                } else {
                    local.backend.delete(key);
                }
            }
            done.incrementAndGet();
        }
        return mine;
    }

    /** A collective job of 1 or 2 one-GPU trainers that run a moment; a quarter of them fail, to be restarted. */
    private static JobRequest job(String name, DeviceLog devices, Random random) {
        boolean fails = random.nextInt(4) == 0;
        String run = "sleep 0.0%d & wait $!; %s; exit %d".formatted(1 + random.nextInt(5), devices.event("exit"),
                fails ? 1 : 0);
        return JobRequests.named(name, devices.begin() + run).mode(JobMode.COLLECTIVE).numGpus(1 + random.nextInt(2))
                .numCpus(1).memory("64Mi").maxRestarts(fails ? 1 : null)
                .build();
    }
}

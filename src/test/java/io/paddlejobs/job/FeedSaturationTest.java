package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.planning.JobRequests;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The feed's senders all busy with clients that stopped reading: another caller's watcher waits for a
 * thread, then is called. Before, its call was dropped when the pool refused it, and the watcher, still
 * marked as running, was never called again nor dropped: its stream stayed open and silent for good.
 */
class FeedSaturationTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final int SENDERS = 2;

    @Test
    void aWatcherWhoseCallFindsEverySenderBusyIsCalledOnceOneIsFreeAndItsCallerLaneGoesWithIt() throws Exception {
        MemoryJobBackend backend = new MemoryJobBackend();
        JobService jobs = QuotaAdmissionTest.service(backend);
        JobKey stuckJob = jobs.submit(JobRequests.named("stuck", "true").build(), "team", Quota.NONE).job().key();
        JobKey watched = jobs.submit(JobRequests.named("watched", "true").build(), "team", Quota.NONE).job().key();
        JobFeed feed = new JobFeed(jobs, SENDERS, SENDERS, Duration.ofMinutes(10));
        CountDownLatch clientsRead = new CountDownLatch(1);
        AtomicInteger blocked = new AtomicInteger();
        try {
            // Every sender holds a send of alice's, whose clients stopped reading.
            List<JobWatcher> alices = List.of(new Stuck(blocked, clientsRead), new Stuck(blocked, clientsRead));
            alices.forEach(watcher -> feed.watchJob(stuckJob, watcher, "alice"));
            await().atMost(DEADLINE).until(() -> blocked.get() == SENDERS);

            Recording bob = new Recording();
            Recording carol = new Recording();
            feed.watchJob(watched, bob, "bob"); // its first call finds no thread
            // The feed's thread takes its work in order: once it lists a namespace for a later watch, bob's call was tried.
            int listed = backend.lists.get();
            feed.watchNamespace("elsewhere", carol, "carol");
            await().atMost(DEADLINE).until(() -> backend.lists.get() > listed);
            assertThat(bob.told).as("no sender free yet").isEmpty();

            clientsRead.countDown();
            await("bob's watcher is called once a sender is free").atMost(DEADLINE).until(() -> !bob.told.isEmpty());
            backend.finish(watched, JobPhase.SUCCEEDED);
            await("and goes on being called").atMost(DEADLINE).until(() -> bob.told.contains(JobPhase.SUCCEEDED));

            alices.forEach(watcher -> feed.unwatchJob(stuckJob, watcher));
            feed.unwatchJob(watched, bob);
            feed.unwatchNamespace("elsewhere", carol);
            await("the lanes of callers that watch nothing go").atMost(DEADLINE).until(() -> feed.lanes() == 0);
        } finally {
            clientsRead.countDown();
            feed.close();
        }
    }

    /** A watcher whose client stopped reading: its first call blocks until the test lets it go. */
    private record Stuck(AtomicInteger blocked, CountDownLatch released) implements JobWatcher {
        @Override
        public void changed(JobKey key, Job job) {
            blocked.incrementAndGet();
            try {
                released.await(DEADLINE.toSeconds() * 2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void closed() {
        }
    }

    private static final class Recording implements JobWatcher {
        final List<JobPhase> told = new CopyOnWriteArrayList<>();

        @Override
        public void changed(JobKey key, Job job) {
            told.add(job == null ? null : job.status().phase());
        }

        @Override
        public void closed() {
        }
    }
}

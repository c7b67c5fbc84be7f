package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two submits of one name at once: the second waits for the first's create (which writes the
 * history's row of the name) and then finds its job, instead of writing the same row beside it,
 * which a database refuses and the caller would have seen as a 503.
 */
class ConcurrentCreatesTest {

    private static final Quota NO_QUOTA = new Quota(0, 0);

    private final HeldHistory history = new HeldHistory();
    private final JobService jobs = QuotaAdmissionTest.service(new MemoryJobBackend(), history);

    @Test
    void aSecondSubmitOfANameWaitsForTheFirstsCreateAndFindsItsJob() throws Exception {
        CompletableFuture<JobService.Submission> first = CompletableFuture.supplyAsync(() -> submit("racy"));
        assertThat(history.entered.await(10, TimeUnit.SECONDS)).as("the first create writes the history").isTrue();
        Thread[] second = new Thread[1];
        CompletableFuture<JobService.Submission> retry = CompletableFuture.supplyAsync(() -> {
            second[0] = Thread.currentThread();
            return submit("racy");
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> second[0] != null && second[0].getState() == Thread.State.BLOCKED);
        assertThat(history.submittedCalls).as("the second has not written the history").hasValue(1);
        history.release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS).created()).isTrue();
        assertThat(retry.get(10, TimeUnit.SECONDS).created()).as("the retry finds the job").isFalse();
        assertThat(history.submittedCalls).hasValue(1);
    }

    @Test
    void submitsOfOtherNamesDoNotWaitForIt() throws Exception {
        CompletableFuture<JobService.Submission> first = CompletableFuture.supplyAsync(() -> submit("slow"));
        assertThat(history.entered.await(10, TimeUnit.SECONDS)).isTrue();
        history.holdOnly = "slow";

        // Names share a create lock by hash; one that does not share the held name's is picked.
        assertThat(submit("other-" + unlockedSuffix("slow")).created()).isTrue();
        history.release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS).created()).isTrue();
    }

    private JobService.Submission submit(String name) {
        return jobs.submit(JobRequests.named(name, "python train.py").build(), "team-a", NO_QUOTA);
    }

    /** A suffix whose name does not share a create lock with {@code held}'s (there are 64). */
    private static int unlockedSuffix(String held) {
        int stripe = Math.floorMod(new JobKey("team-a", held).hashCode(), 64);
        for (int i = 0; ; i++) {
            if (Math.floorMod(new JobKey("team-a", "other-" + i).hashCode(), 64) != stripe) {
                return i;
            }
        }
    }

    /** A history whose first write of a submit is held until the test releases it. */
    private static final class HeldHistory extends JobHistory.KeepsNothing {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger submittedCalls = new AtomicInteger();
        volatile String holdOnly;

        @Override
        public void submitted(JobPlan plan) {
            submittedCalls.incrementAndGet();
            if (holdOnly != null && !holdOnly.equals(plan.name())) {
                return;
            }
            entered.countDown();
            try {
                if (!release.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}

package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.config.PlanningProperties;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Admission against a namespace's quota, counted without listing the namespace per submit: a job
 * that finishes, is cancelled or deleted frees its share; a restarted service counts the jobs its
 * backend recovered; concurrent submits never take a namespace past its quota.
 */
public class QuotaAdmissionTest {

    private static final String NS = "team-a";
    private static final JobPlanner PLANNER = new JobPlanner(Settings.planningPolicyWithoutGpuRules());
    private static final CodePackages NO_PACKAGES = new CodePackages() {
        @Override
        public boolean exists(String namespace, String id) {
            return false;
        }

        @Override
        public void unpackInto(String namespace, String id, Path directory) {
            throw new UnsupportedOperationException();
        }
    };

    private final MemoryJobBackend backend = new MemoryJobBackend();
    private final JobService jobs = service(backend);

    @Test
    void aNamespaceAtItsUnfinishedJobsLimitTakesAnotherOnlyOnceOneFinishes() {
        Quota two = new Quota(2, 0);
        jobs.submit(request("a", null), NS, two);
        jobs.submit(request("b", null), NS, two);

        assertThatThrownBy(() -> jobs.submit(request("c", null), NS, two))
                .isInstanceOf(QuotaExceededException.class)
                .hasMessageContaining("Namespace 'team-a' already has 2 pending or running jobs");
        backend.finish(new JobKey(NS, "a"), JobPhase.SUCCEEDED);

        assertThat(jobs.submit(request("c", null), NS, two).created()).isTrue();
        assertThat(jobs.submit(request("d", null), "team-b", two).created()).as("another namespace's count").isTrue();
    }

    @Test
    void gpusOfACancelledOrDeletedJobAreFreed() {
        Quota fourGpus = new Quota(0, 4);
        jobs.submit(request("big", 3), NS, fourGpus);

        assertThatThrownBy(() -> jobs.submit(request("more", 2), NS, fourGpus))
                .isInstanceOf(QuotaExceededException.class)
                .hasMessageContaining("has 3 GPUs held", "asks for 2 more", "at most 4");
        assertThat(jobs.submit(request("fits", 1), NS, fourGpus).created()).isTrue();
        jobs.cancel(new JobKey(NS, "big"));
        assertThat(jobs.submit(request("more", 2), NS, fourGpus).created()).isTrue();
        jobs.delete(new JobKey(NS, "more"));
        jobs.delete(new JobKey(NS, "fits"));

        assertThat(jobs.submit(request("all", 4), NS, fourGpus).created()).isTrue();
    }

    @Test
    void aRestartedServiceCountsTheUnfinishedJobsItsBackendRecovered() {
        backend.recovered(PLANNER.plan(request("old-running", 2), NS, backend.site()), JobPhase.RUNNING);
        backend.recovered(PLANNER.plan(request("old-done", 8), NS, backend.site()), JobPhase.FAILED);
        JobService restarted = service(backend);

        assertThatThrownBy(() -> restarted.submit(request("new", 3), NS, new Quota(0, 4)))
                .isInstanceOf(QuotaExceededException.class).hasMessageContaining("has 2 GPUs held");
        assertThat(restarted.submit(request("new", 2), NS, new Quota(2, 4)).created()).isTrue();
        assertThatThrownBy(() -> restarted.submit(request("third", null), NS, new Quota(2, 0)))
                .isInstanceOf(QuotaExceededException.class);
    }

    @Test
    void jobsSubmittedWithoutAQuotaCountForTheNextCallerWhoHasOne() {
        jobs.submit(request("free-1", null), NS, Quota.NONE);
        jobs.submit(request("free-2", null), NS, Quota.NONE);
        assertThat(jobs.submit(request("third", null), NS, new Quota(3, 0)).created()).isTrue();
        jobs.submit(request("free-3", null), NS, Quota.NONE);

        assertThatThrownBy(() -> jobs.submit(request("fifth", null), NS, new Quota(4, 0)))
                .isInstanceOf(QuotaExceededException.class).hasMessageContaining("already has 4");
    }

    @Test
    void submitsDoNotListTheNamespaceEachTime() {
        for (int i = 0; i < 20; i++) {
            jobs.submit(request("job-" + i, null), NS, new Quota(100, 100));
        }

        assertThat(backend.lists).as("listed once, to learn what the namespace held before").hasValue(1);
    }

    @Test
    void anIdenticalRetryIsAnsweredAtTheLimitAndADifferentSpecIsAConflict() {
        Quota one = new Quota(1, 0);
        jobs.submit(request("held", null), NS, one);

        JobService.Submission retry = jobs.submit(request("held", null), NS, one);

        assertThat(retry.created()).isFalse();
        assertThat(retry.job().key()).isEqualTo(new JobKey(NS, "held"));
        assertThatThrownBy(() -> jobs.submit(request("held", 1), NS, Quota.NONE))
                .isInstanceOf(JobConflictException.class);
    }

    @Test
    void concurrentSubmitsNeverTakeTheNamespacePastItsQuota() throws Exception {
        int callers = 16;
        Quota quota = new Quota(5, 6);
        CyclicBarrier start = new CyclicBarrier(callers);
        List<Future<Boolean>> outcomes = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            for (int i = 0; i < callers; i++) {
                String name = "racer-" + i;
                Integer gpus = i % 2 == 0 ? 1 : 2;
                outcomes.add(pool.submit(() -> {
                    start.await();
                    try {
                        return jobs.submit(request(name, gpus), NS, quota).created();
                    } catch (QuotaExceededException refused) {
                        return false;
                    }
                }));
            }
        } finally {
            pool.shutdown();
        }

        long created = 0;
        for (Future<Boolean> outcome : outcomes) {
            created += outcome.get() ? 1 : 0;
        }
        List<Job> held = backend.list(NS);
        assertThat(held).hasSize((int) created);
        assertThat(held.size()).isBetween(3, 5);
        assertThat(held.stream().mapToInt(job -> job.plan().totals().gpu()).sum()).isLessThanOrEqualTo(6);
    }

    public static JobService service(JobBackend backend) {
        return service(backend, JobHistory.NONE);
    }

    public static JobService service(JobBackend backend, JobHistory history) {
        return new JobService(PLANNER, backend, NO_PACKAGES,
                new PlanSize(Settings.defaults(PlanningProperties.class).limits().maxPlanSize().toBytes()), history);
    }

    private static JobRequest request(String name, Integer gpus) {
        return JobRequests.named(name, "python train.py").numGpus(gpus).build();
    }
}

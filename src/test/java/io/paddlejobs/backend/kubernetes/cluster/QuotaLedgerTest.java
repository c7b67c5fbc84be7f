package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.backend.kubernetes.MockCluster;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.Pods;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.status.JobStatusMapper;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.QuotaUsage;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.testing.MovableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ledger's counting against fabric8's mock API server: claims count until the cache shows their jobs, or lapse. */
class QuotaLedgerTest {

    private static final Instant T0 = Instant.parse("2026-12-05T06:00:00Z");

    private final MockCluster cluster = new MockCluster();
    private final MovableClock now = new MovableClock(T0);
    private final List<Job> cached = new ArrayList<>();
    private final QuotaLedger ledger = new QuotaLedger(cluster.admin, namespace -> cached, now);

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aClaimCountsUntilItLapsesAndAGivenBackClaimCountsNoMore() {
        JobPlan first = Plans.plan(Plans.gpuRequest("first", 2), "ml");
        JobPlan second = Plans.plan(Plans.gpuRequest("second", 2), "ml");
        ledger.claim(first, usage -> assertThat(usage).isEqualTo(new QuotaUsage(0, 0)));

        ledger.claim(second, usage -> assertThat(usage).as("the first job's claim, not yet in the cache")
                .isEqualTo(new QuotaUsage(1, 2)));
        ledger.release(new JobKey("ml", "second"));
        assertThat(seen(Plans.plan(Plans.gpuRequest("third", 2), "ml"))).isEqualTo(new QuotaUsage(1, 2));

        now.set(T0.plus(QuotaLedger.GRACE).plusSeconds(1));
        assertThat(seen(Plans.plan(Plans.gpuRequest("fourth", 2), "ml"))).as("lapsed").isEqualTo(new QuotaUsage(0, 0));
        assertThat(cluster.admin.configMaps().inNamespace("ml").withName(QuotaLedger.NAME).get().getData())
                .containsOnlyKeys("fourth");
    }

    @Test
    void aJobTheCacheHoldsCountsAsItStandsThereClaimedOrNot() {
        JobPlan plan = Plans.plan(Plans.gpuRequest("held", 2), "ml");
        ledger.claim(plan, usage -> { });
        cached.add(new Job(plan, JobStatusMapper.map(plan, new ObservedJob(
                Pods.cancelled(Manifests.desired(plan, MockCluster.settings(List.of())).trainerJob()), null, List.of()))));

        assertThat(seen(Plans.plan(Plans.gpuRequest("next", 2), "ml"))).as("cancelled: it holds nothing")
                .isEqualTo(new QuotaUsage(0, 0));
    }

    /** The usage a claim for this plan sees (and the claim it then makes). */
    private QuotaUsage seen(JobPlan plan) {
        AtomicReference<QuotaUsage> seen = new AtomicReference<>();
        ledger.claim(plan, seen::set);
        return seen.get();
    }
}

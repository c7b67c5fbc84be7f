package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.record.JobRecord;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static io.paddlejobs.backend.local.LocalBackendFixture.anyProcessWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What survives a restart of the service, and how jobs wait for a free slot. */
class LocalRecoveryAndQueueTest {

    @TempDir
    Path dataRoot;

    @Test
    void jobRunningWhenTheServiceDiedIsFailedAndItsLeftoverProcessIsStopped() throws Exception {
        String marker = "sleep 3201";
        Process leftover = new ProcessBuilder("setsid", "sh", "-c", marker + " & wait").start();
        JobPlan plan;
        try (var before = new LocalBackendFixture(dataRoot, 4)) {
            plan = before.plan(LocalBackendFixture.request("crashed", "true", 1, 1));
            before.store().save(runningRecord(plan, leftover));
        }
        assertThat(anyProcessWith(marker)).isTrue();

        try (var after = new LocalBackendFixture(dataRoot, 4)) {
            Job job = after.job("crashed");

            assertThat(job.status().phase()).isEqualTo(JobPhase.FAILED);
            assertThat(job.status().reason()).isEqualTo("ServiceRestarted");
            assertThat(anyProcessWith(marker)).as("the leftover process group is stopped").isFalse();
        }
    }

    @Test
    void finishedJobsAreStillThereAfterARestart() {
        try (var before = new LocalBackendFixture(dataRoot, 4)) {
            before.submit("done", "true", 1, 2);
            before.awaitPhase("done", JobPhase.SUCCEEDED);
        }
        try (var after = new LocalBackendFixture(dataRoot, 4)) {
            Job job = after.job("done");
            assertThat(job.status().phase()).isEqualTo(JobPhase.SUCCEEDED);
            assertThat(job.status().trainers().succeeded()).isEqualTo(2);
            assertThat(job.plan().trainers().count()).isEqualTo(2);
        }
    }

    @Test
    void normalShutdownLeavesNoProcessAndRecordsWhy() {
        String marker = "sleep 3202";
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            local.submit("interrupted", marker, 1, 1);
            local.awaitPhase("interrupted", JobPhase.RUNNING);
        }
        assertThat(anyProcessWith(marker)).isFalse();
        try (var after = new LocalBackendFixture(dataRoot, 4)) {
            assertThat(after.job("interrupted").status().reason()).isEqualTo("ServiceStopped");
        }
    }

    @Test
    void jobsOverTheCapWaitInOrderWithTheirPositionAndStartWhenASlotFrees() {
        try (var local = new LocalBackendFixture(dataRoot, 1)) {
            local.submit("first", "sleep 3203", 1, 1);
            local.submit("second", "true", 1, 1);
            local.submit("third", "true", 1, 1);
            local.awaitPhase("first", JobPhase.RUNNING);

            JobStatus second = local.job("second").status();
            assertThat(second.phase()).isEqualTo(JobPhase.PENDING);
            assertThat(second.queuePosition()).isEqualTo(1);
            assertThat(second.message()).contains("position 1");
            assertThat(local.job("third").status().queuePosition()).isEqualTo(2);

            local.backend.cancel(new JobKey("default", "first"));

            local.awaitPhase("second", JobPhase.SUCCEEDED);
            local.awaitPhase("third", JobPhase.SUCCEEDED);
            assertThat(local.job("second").status().startedAt()).isBefore(local.job("third").status().startedAt());
        }
    }

    @Test
    void cancellingAQueuedJobTakesItOutOfTheQueue() {
        try (var local = new LocalBackendFixture(dataRoot, 1)) {
            local.submit("busy", "sleep 3204", 1, 1);
            local.submit("waiting", "true", 1, 1);

            Job cancelled = local.backend.cancel(new JobKey("default", "waiting")).orElseThrow();

            assertThat(cancelled.status().phase()).isEqualTo(JobPhase.CANCELLED);
            assertThat(cancelled.status().queuePosition()).isNull();
            local.backend.cancel(new JobKey("default", "busy"));
            await().atMost(DEADLINE).until(() -> !anyProcessWith("sleep 3204"));
            assertThat(local.job("waiting").status().startedAt()).isNull();
        }
    }

    /** The record a service that died mid-run leaves behind: Running, with a live process. */
    private static JobRecord runningRecord(JobPlan plan, Process process) {
        Instant now = Instant.now();
        var replicas = plan.replicas().stream()
                .map(r -> new ReplicaStatus(r.id(), r.role(), r.index(), r.host(), ReplicaState.RUNNING, 0, null, null,
                        now, null))
                .toList();
        var status = new JobStatus(JobPhase.RUNNING, null, null, now, now, null, null,
                new RoleCounts(1, 0, 1, 0, 0), new RoleCounts(1, 0, 1, 0, 0), replicas);
        var ref = new ReplicaProcess.ProcessRef(process.pid(), process.toHandle().info().startInstant().orElse(null));
        return new JobRecord(plan.spec(), plan.namespace(), plan.ports().first(), status, Map.of("trainer-0", ref));
    }

}

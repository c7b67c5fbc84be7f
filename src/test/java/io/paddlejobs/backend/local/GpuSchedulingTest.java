package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.RendezvousGateTest;
import io.paddlejobs.backend.local.sandbox.CgroupLimits;
import io.paddlejobs.backend.local.schedule.GpuAssignment;
import io.paddlejobs.backend.local.schedule.GpuDevice;
import io.paddlejobs.backend.local.schedule.MachineCapacity;
import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Capacity;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Violation;
import io.paddlejobs.testing.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local backend hands out GPUs on a machine with four (a fake nvidia-smi): detection, assignment, waiting. */
class GpuSchedulingTest {

    /** Prints what the replica was given, then runs until it is stopped. */
    private static final String SHOW_DEVICES = "echo \"visible=[$CUDA_VISIBLE_DEVICES] nvidia=[$NVIDIA_VISIBLE_DEVICES] "
            + "selected=[$FLAGS_selected_gpus]\"; exec sleep 3301";

    @TempDir
    Path dir;
    Path dataRoot;
    Path nvidiaSmi;

    @BeforeEach
    void fourGpus() throws Exception {
        dataRoot = Files.createDirectories(dir.resolve("data"));
        nvidiaSmi = FakeGpus.nvidiaSmi(Files.createDirectories(dir.resolve("bin")), 4);
    }

    private LocalBackendFixture local(int maxRunningJobs, List<String> gpus) {
        return new LocalBackendFixture(FakeGpus.properties(dataRoot, maxRunningJobs, gpus, nvidiaSmi), false);
    }

    private static Job submit(LocalBackendFixture local, String name, int gpus) {
        return local.backend.submit(local.plan(JobRequests.named(name, SHOW_DEVICES).numGpus(gpus).build()));
    }

    @Test
    void capacityListsTheGpusNvidiaSmiReports() {
        try (var local = local(4, List.of())) {
            Capacity capacity = local.backend.capacity().orElseThrow();

            assertThat(capacity.total().gpus()).isEqualTo(4);
            assertThat(capacity.free().gpus()).isEqualTo(4);
            assertThat(capacity.gpus()).extracting(Capacity.Gpu::index).containsExactly(0, 1, 2, 3);
            assertThat(capacity.gpus().get(2).uuid()).isEqualTo(FakeGpus.uuid(2));
            assertThat(capacity.gpus().get(2).name()).isEqualTo("NVIDIA H100 80GB HBM3");
            assertThat(capacity.gpus().get(2).memoryMib()).isEqualTo(81559L);
            assertThat(capacity.gpus()).noneMatch(Capacity.Gpu::held);
            assertThat(capacity.notes()).anyMatch(note -> note.contains("counted, not enforced"));
            assertThat(capacity.enforced()).isFalse();
        }
    }

    @Test
    void configuredGpusWinOverDetectionByIndexOrUuid() {
        try (var local = local(4, List.of("3", FakeGpus.uuid(1)))) {
            assertThat(local.backend.capacity().orElseThrow().gpus()).extracting(Capacity.Gpu::index, Capacity.Gpu::uuid)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(3, FakeGpus.uuid(3)),
                            org.assertj.core.groups.Tuple.tuple(1, FakeGpus.uuid(1)));
        }
        try (var local = local(4, List.of("none"))) {
            assertThat(local.backend.capacity().orElseThrow().total().gpus()).isZero();
        }
    }

    @Test
    void twoJobsRunSideBySideOnDisjointGpusEachTrainerSeeingOnlyItsOwn() throws Exception {
        try (var local = local(4, List.of())) {
            submit(local, "gpu-a", 2);
            submit(local, "gpu-b", 2);
            local.awaitPhase("gpu-a", JobPhase.RUNNING);
            local.awaitPhase("gpu-b", JobPhase.RUNNING);

            Set<String> seen = new HashSet<>();
            for (String job : List.of("gpu-a", "gpu-b")) {
                for (int trainer = 0; trainer < 2; trainer++) {
                    String line = awaitLine(local, job, Role.TRAINER, trainer);
                    ReplicaStatus status = replica(local.job(job), "trainer-" + trainer);
                    assertThat(status.gpus()).hasSize(1);
                    String uuid = status.gpus().get(0);
                    assertThat(line).isEqualTo("visible=[%s] nvidia=[%s] selected=[0]".formatted(uuid, uuid));
                    seen.add(uuid);
                }
                assertThat(awaitLine(local, job, Role.PSERVER, 0)).as("a pserver sees no GPU")
                        .isEqualTo("visible=[] nvidia=[] selected=[]");
                assertThat(replica(local.job(job), "pserver-0").gpus()).isEmpty();
                Replica planned = local.job(job).plan().replicasOf(Role.TRAINER).get(1);
                assertThat(planned.env()).containsEntry("CUDA_VISIBLE_DEVICES",
                        replica(local.job(job), "trainer-1").gpus().get(0));
            }
            assertThat(seen).as("four trainers, four different GPUs").hasSize(4);

            Capacity capacity = local.backend.capacity().orElseThrow();
            assertThat(capacity.free().gpus()).isZero();
            assertThat(capacity.gpus()).extracting(gpu -> gpu.job().name()).containsOnly("gpu-a", "gpu-b");
        }
    }

    @Test
    void aJobThatFitsButNotNowWaitsSayingForWhatAndStartsOnTheGpusThatCameFree() {
        try (var local = local(4, List.of())) {
            submit(local, "gpu-a", 2);
            submit(local, "gpu-b", 2);
            submit(local, "gpu-c", 2);
            submit(local, "small", 1);
            local.awaitPhase("gpu-a", JobPhase.RUNNING);
            local.awaitPhase("gpu-b", JobPhase.RUNNING);

            var waiting = local.job("gpu-c").status();
            assertThat(waiting.phase()).isEqualTo(JobPhase.PENDING);
            assertThat(waiting.reason()).isEqualTo("WaitingForResources");
            assertThat(waiting.message()).contains("waiting for 2 GPUs: 0 of 4 free, held by gpu-a, gpu-b");
            assertThat(waiting.queuePosition()).isEqualTo(1);
            var behind = local.job("small").status();
            assertThat(behind.reason()).as("a smaller job does not overtake the first").isEqualTo("Queued");
            assertThat(behind.message()).contains("position 2", "behind gpu-c");
            List<String> freed = replica(local.job("gpu-a"), "trainer-0").gpus();

            local.backend.cancel(new JobKey("default", "gpu-a"));

            local.awaitPhase("gpu-c", JobPhase.RUNNING);
            assertThat(local.job("small").status().reason()).isEqualTo("WaitingForResources");
            List<String> given = new ArrayList<>(replica(local.job("gpu-c"), "trainer-0").gpus());
            given.addAll(replica(local.job("gpu-c"), "trainer-1").gpus());
            assertThat(given).contains(freed.get(0)).doesNotContainAnyElementsOf(
                    replica(local.job("gpu-b"), "trainer-0").gpus());
        }
    }

    @Test
    void aJobThatCanNeverFitIsRefusedSayingWhatTheMachineHas() {
        try (var local = local(4, List.of())) {
            assertThatThrownBy(() -> local.backend.requireFits(local.plan(JobRequests.named("huge", "true")
                    .numGpus(8).build())))
                    .isInstanceOfSatisfying(InvalidJobRequestException.class, e -> assertThat(e.violations())
                            .singleElement().satisfies(v -> {
                                assertThat(v.fields()).containsExactly("num_gpus");
                                assertThat(v.message()).isEqualTo("this machine has 4 GPUs; the job asks for 8");
                            }));
            assertThatThrownBy(() -> local.backend.requireFits(local.plan(JobRequests.named("fat", "true")
                    .memory("200Gi").mode(JobMode.COLLECTIVE).build())))
                    .isInstanceOfSatisfying(InvalidJobRequestException.class, e -> assertThat(e.violations())
                            .extracting(Violation::message).singleElement().asString()
                            .contains("this machine has 64Gi of memory for jobs; the job asks for 200Gi"));
            local.backend.requireFits(local.plan(JobRequests.named("fits", "true").numGpus(4).build()));
        }
        try (var none = local(4, List.of("none"))) {
            assertThatThrownBy(() -> none.backend.requireFits(none.plan(JobRequests.named("gpu", "true")
                    .numGpus(1).build()))).hasMessage("this machine has no GPUs; the job asks for 1");
        }
    }

    @Test
    void memoryTheUserNeverAskedForIsExplainedByThePerGpuFloor() {
        try (var local = local(4, List.of())) {
            // As a service plans with its shipped settings: the per-GPU floors on.
            JobPlanner shipped = new JobPlanner(Settings.planningPolicy());
            assertThatThrownBy(() -> local.backend.requireFits(shipped.plan(JobRequests.named("floored", "true")
                    .numGpus(8).build(), "default", local.backend.site())))
                    .isInstanceOfSatisfying(InvalidJobRequestException.class, e -> assertThat(e.violations())
                            .filteredOn(v -> v.fields().contains("memory")).singleElement()
                            .satisfies(v -> assertThat(v.message()).contains("the job asks for 72Gi")
                                    .contains("each GPU trainer gets 8Gi, raised to the per-GPU floor of")
                                    .contains("paddlejobs.defaults.trainer-mem-per-gpu")));
        }
    }

    @Test
    void afterARestartFinishedJobsKeepTheirGpusOnRecordAndNothingIsHeld() {
        List<String> before;
        try (var local = local(4, List.of())) {
            submit(local, "gpu-a", 2);
            local.awaitPhase("gpu-a", JobPhase.RUNNING);
            before = replica(local.job("gpu-a"), "trainer-1").gpus();
            assertThat(local.backend.capacity().orElseThrow().inUse().gpus()).isEqualTo(2);
        }
        try (var after = local(4, List.of())) {
            Job job = after.job("gpu-a");
            assertThat(job.status().reason()).isEqualTo("ServiceStopped");
            assertThat(replica(job, "trainer-1").gpus()).as("on record").isEqualTo(before);
            assertThat(after.backend.capacity().orElseThrow().inUse().gpus()).isZero();
        }
    }

    @Test
    void aJobRunningWhenTheServiceDiedHoldsItsGpusUntilItsLeftoversAreStoppedThenFreesThem() throws Exception {
        String marker = "sleep 3302";
        Process leftover = new ProcessBuilder("setsid", "sh", "-c", marker + " & wait").start();
        GpuAssignment held;
        try (var before = local(4, List.of())) {
            var plan = before.plan(JobRequests.named("crashed", "true").numGpus(4).mode(JobMode.COLLECTIVE).build());
            List<GpuDevice> all = MachineCapacity.detect(before.properties, CgroupLimits.ofThisProcess(),
                    Path.of("/proc/meminfo")).gpus();
            held = new GpuAssignment(java.util.Map.of("trainer-0", List.of(all.get(0)), "trainer-1", List.of(all.get(1)),
                    "trainer-2", List.of(all.get(2)), "trainer-3", List.of(all.get(3))));
            before.store().save(CrashedRecords.running(plan, leftover, held));
        }
        try (var after = local(4, List.of())) {
            Job crashed = after.job("crashed");
            assertThat(crashed.status().reason()).isEqualTo("ServiceRestarted");
            assertThat(LocalBackendFixture.anyProcessWith(marker)).isFalse();
            assertThat(replica(crashed, "trainer-2").gpus()).containsExactly(FakeGpus.uuid(2));

            await().atMost(DEADLINE).until(() -> after.backend.capacity().orElseThrow().inUse().gpus() == 0);
            submit(after, "next", 4);
            after.awaitPhase("next", JobPhase.RUNNING);
        }
    }

    @Test
    void aJobStartedAgainAfterAFailureRunsOnTheSameGpus() throws Exception {
        var properties = FakeGpus.properties(dataRoot, 4, List.of(), nvidiaSmi);
        try (var local = new LocalBackendFixture(properties,
                new RestartBackoff(java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(1)))) {
            submit(local, "other", 1);
            local.awaitPhase("other", JobPhase.RUNNING);
            // Trainer 0 listens on its master port, as Paddle's store does: the other trainer starts once it does.
            String devices = SHOW_DEVICES.replace("exec sleep 3301", "if [ \"$RANK\" = 0 ]; then "
                    + RendezvousGateTest.listenOnMasterPort(dir.resolve("listening")) + "; else exec sleep 3301; fi");
            local.backend.submit(local.plan(JobRequests.named("flaky", "[ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ] && exit 3; "
                    + devices).numGpus(2).mode(JobMode.COLLECTIVE).maxRestarts(1).build()));
            await().atMost(DEADLINE).until(() -> !replica(local.job("flaky"), "trainer-1").gpus().isEmpty());
            List<String> first = List.of(replica(local.job("flaky"), "trainer-0").gpus().get(0),
                    replica(local.job("flaky"), "trainer-1").gpus().get(0));

            await().atMost(DEADLINE).until(() -> local.job("flaky").status().restarts() == 1);
            String line = awaitLine(local, "flaky", Role.TRAINER, 1);

            assertThat(List.of(replica(local.job("flaky"), "trainer-0").gpus().get(0),
                    replica(local.job("flaky"), "trainer-1").gpus().get(0))).isEqualTo(first);
            assertThat(line).contains("visible=[" + first.get(1) + "]");
        }
    }

    private static ReplicaStatus replica(Job job, String id) {
        return job.status().replicas().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    private static String awaitLine(LocalBackendFixture local, String job, Role role, int index) throws Exception {
        await().atMost(DEADLINE).until(() -> local.log(job, role, index).contains("visible="));
        return local.log(job, role, index).lines().filter(line -> line.contains("visible=")).findFirst().orElseThrow();
    }
}

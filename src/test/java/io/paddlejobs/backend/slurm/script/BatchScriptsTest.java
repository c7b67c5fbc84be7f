package io.paddlejobs.backend.slurm.script;

import io.paddlejobs.backend.slurm.SlurmChoices;
import io.paddlejobs.backend.slurm.SlurmProperties;
import io.paddlejobs.backend.slurm.SlurmSite;
import io.paddlejobs.backend.slurm.client.BatchJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.Resources;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.RolePlan;
import io.paddlejobs.testing.Settings;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BatchScriptsTest {

    @ParameterizedTest(name = "{0} CPU, {1} Mi, {2} GPU -> {3} CPUs of {4} MB, {2} GPUs")
    @CsvSource({
            "1000, 1024, 0, 1, 1024",
            "2000, 1024, 0, 2, 512",
            "250, 100, 0, 1, 100",      // a fractional CPU rounds up to one
            "1500, 1000, 0, 2, 500",
            "3000, 1001, 2, 3, 334",    // memory per CPU rounds up, never below the replica's
    })
    void eachReplicaIsOneTaskWithWholeCpusAndAtLeastItsMemory(long millis, long mebibytes, int gpus, int cpus,
                                                             long memoryPerCpu) {
        RolePlan role = new RolePlan(Role.TRAINER, 3, "true",
                new Resources(new Cpu(millis), gpus, Memory.ofMebibytes(mebibytes)));

        BatchJob.Component component = BatchScripts.component(role);

        assertThat(component).isEqualTo(new BatchJob.Component(3, cpus, memoryPerCpu, gpus));
        assertThat(component.cpusPerTask() * component.memoryPerCpuMb()).isGreaterThanOrEqualTo(mebibytes);
    }

    @Test
    void componentsAreSeparatedByHetjobAndEachNamesItsPartitionAccountAndQos() {
        BatchJob job = new BatchJob("paddlejobs.default.demo", Path.of("/shared/work"), Path.of("/shared/batch.log"),
                List.of(new BatchJob.Component(2, 1, 1024, 0), new BatchJob.Component(3, 2, 256, 1)), 90, 30,
                new SlurmChoices("gpu", "ml", "high"), "echo body\n");

        String script = BatchScripts.withDirectives(job);

        assertThat(script).isEqualTo("""
                #!/bin/bash
                #SBATCH --job-name=paddlejobs.default.demo
                #SBATCH --chdir=/shared/work
                #SBATCH --output=/shared/batch.log
                #SBATCH --no-requeue --export=NONE
                #SBATCH --time=90
                #SBATCH --signal=TERM@30
                #SBATCH --ntasks=2 --cpus-per-task=1 --mem-per-cpu=1024 --partition=gpu --account=ml --qos=high
                #SBATCH hetjob
                #SBATCH --ntasks=3 --cpus-per-task=2 --mem-per-cpu=256 --gpus-per-task=1 --partition=gpu --account=ml --qos=high
                echo body
                """);
    }

    @ParameterizedTest(name = "max_run_time {0}s with a configured {1} min -> --time={2}")
    @CsvSource({
            ", 5, 5",          // no max_run_time: the backend's limit
            ", 0, 0",          // neither: the partition's default
            "5400, 5, 90",     // the job's own limit wins, larger or smaller
            "90, 5, 2",        // Slurm counts whole minutes: rounded up, never cut short
    })
    void aJobsMaxRunTimeIsItsTimeLimitInWholeMinutes(Long maxRunSeconds, long configured, long minutes) {
        var maxRunTime = maxRunSeconds == null ? null : java.time.Duration.ofSeconds(maxRunSeconds);

        assertThat(BatchScripts.timeLimitMinutes(maxRunTime, configured)).isEqualTo(minutes);
    }

    @ParameterizedTest(name = "a {0} min limit with a {1}s grace period -> SIGTERM {2}s before it")
    @CsvSource({
            "0, 30, 0",         // no time limit: nothing to warn of
            "90, 30, 30",
            "90, 0, 0",         // no grace period: no warning
            "1, 45, 30",        // never more than half the limit
            "3000, 100000, 65535", // what --signal can say
    })
    void replicasAreWarnedWithSigtermTheGracePeriodBeforeTheTimeLimit(long minutes, long graceSeconds, long seconds) {
        assertThat(BatchScripts.termBeforeLimit(minutes, java.time.Duration.ofSeconds(graceSeconds))).isEqualTo(seconds);
    }

    @Test
    void withPyxisTheRequestsImageIsEveryStepsContainerWithTheJobAndItsStorageMountedAtTheirPaths() {
        SlurmProperties pyxis = Settings.of(SlurmProperties.class, "shared-dir", "/shared", "containers", "pyxis");
        JobPlan plan = withImage(PlacementTest.plan(), "nvcr.io#nvidia/paddlepaddle:24.01");
        JobFiles files = new JobFiles(Path.of("/shared"), new JobKey("default", "demo"));

        String script = BatchScripts.withDirectives(BatchScripts.of(plan, files, pyxis));

        assertThat(script).contains("""
                PSERVER_IMAGE='nvcr.io#nvidia/paddlepaddle:24.01'
                TRAINER_IMAGE='nvcr.io#nvidia/paddlepaddle:24.01'
                CONTAINER_MOUNTS='/shared/jobs/default/demo:/shared/jobs/default/demo,/shared/storage/default:/shared/storage/default'
                """);
        assertThat(script).as("each step's srun, not the batch job: Pyxis runs an sbatch script with an image inside it")
                .doesNotContain("#SBATCH --container")
                .contains("group+=(--container-image=\"${!image_var}\" --container-mounts=\"$CONTAINER_MOUNTS\")");
        assertThat(BatchScripts.imageWarning(plan, pyxis)).isEmpty();
    }

    @Test
    void withPyxisThePserversRunInTheirOwnImageWhereTheRequestGivesOne() {
        SlurmProperties pyxis = Settings.of(SlurmProperties.class, "shared-dir", "/shared", "containers", "pyxis");
        JobPlan plan = PlacementTest.plan();
        plan = plan.withSpec(JobRequests.Builder.from(plan.spec()).image("paddle:2.6").pserverImage("paddle:2.6-ps").build());

        String script = BatchScripts.withDirectives(BatchScripts.of(plan,
                new JobFiles(Path.of("/shared"), new JobKey("default", "demo")), pyxis));

        assertThat(script).contains("PSERVER_IMAGE='paddle:2.6-ps'\nTRAINER_IMAGE='paddle:2.6'\n");
    }

    @Test
    void withoutContainersAnImageIsOnlyAWarningThatTheNodesSoftwareRuns() {
        SlurmProperties none = Settings.of(SlurmProperties.class, "shared-dir", "/shared");
        JobPlan plan = withImage(PlacementTest.plan(), "paddlepaddle/paddle:2.6.1");

        String script = BatchScripts.withDirectives(BatchScripts.of(plan, new JobFiles(Path.of("/shared"), new JobKey("default", "demo")), none));

        assertThat(script).doesNotContain("_IMAGE=");
        assertThat(BatchScripts.imageWarning(plan, none)).hasValueSatisfying(warning -> assertThat(warning)
                .contains("image", "software installed on its nodes", "paddlejobs.slurm.containers=pyxis"));
        assertThat(BatchScripts.imageWarning(PlacementTest.plan(), none)).as("no image asked for").isEmpty();
    }

    @Test
    void onlyACollectiveJobsOtherTrainersWaitForTrainerZeroAndForAsLongAsTheOperatorSays() {
        SlurmProperties properties = Settings.of(SlurmProperties.class, "shared-dir", "/shared")
                .withShared(Settings.of(BackendProperties.class, "rendezvous-listen-timeout", "45s"));
        JobFiles files = new JobFiles(Path.of("/shared"), new JobKey("default", "demo"));
        JobPlan collective = new io.paddlejobs.planning.JobPlanner(Settings.planningPolicyWithoutGpuRules()).plan(
                JobRequests.named("meet", "python3 train.py").mode(io.paddlejobs.planning.JobMode.COLLECTIVE).trainers(2)
                        .build(), "default", new SlurmSite(properties));

        assertThat(BatchScripts.of(collective, files, properties).body()).contains("RENDEZVOUS_TIMEOUT=45\n")
                .contains("export JOB_DIR FIRST_PORT REPLICA_PATH STATE_DIR LOG_DIR RESTART_COUNT RENDEZVOUS_TIMEOUT DEBUG_HOLD\n")
                .as("no debug_hold: no replica keeps its task").contains("DEBUG_HOLD=0\n");
        // Each attempt's replicas log into a directory of the attempt's: a restart keeps the crash it was for.
        assertThat(BatchScripts.of(collective, files, properties).body())
                .contains("LOG_DIR=" + io.paddlejobs.backend.ShellScripts.quote("/shared/jobs/default/demo/logs") + "\n");
        assertThat(BatchScripts.of(collective, files, properties, 2, java.time.Duration.ZERO).body())
                .contains("LOG_DIR=" + io.paddlejobs.backend.ShellScripts.quote("/shared/jobs/default/demo/logs/attempt-2")
                        + "\n");
        assertThat(BatchScripts.of(PlacementTest.plan(), files, properties).body()).as("a ps job: nobody waits")
                .contains("RENDEZVOUS_TIMEOUT=0\n");
    }

    private static JobPlan withImage(JobPlan plan, String image) {
        return plan.withSpec(JobRequests.Builder.from(plan.spec()).image(image).build());
    }

    @Test
    void aJobWithoutPserversIsOneComponentOfTrainers() {
        var plan = PlacementTest.plan();
        var noPservers = new io.paddlejobs.planning.JobPlan(plan.name(), plan.namespace(), plan.image(), plan.spec(),
                new RolePlan(Role.PSERVER, 0, "true", plan.pservers().perReplica()), plan.trainers(), plan.ports(),
                plan.useGpu(), plan.totals(), plan.replicasOf(Role.TRAINER), plan.derivations(), plan.warnings());

        assertThat(BatchScripts.roles(noPservers)).containsExactly(plan.trainers());
        assertThat(BatchScripts.roles(plan)).containsExactly(plan.pservers(), plan.trainers());
    }
}

package io.paddlejobs.planning;

import static io.paddlejobs.planning.PlannerFixtures.plan;
import static io.paddlejobs.planning.PlannerFixtures.rejection;
import static io.paddlejobs.planning.PlannerFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Mode collective (docs/request.md): trainers only, wired the way Paddle 3's init_parallel_env() reads it. */
class CollectiveModeTest {

    private static String rule(JobPlan plan, String field) {
        return plan.derivations().stream().filter(d -> d.field().equals(field)).map(Derivation::rule)
                .findFirst().orElseThrow(() -> new AssertionError("no derivation for " + field));
    }

    @ParameterizedTest(name = "{0} -> {1} trainers")
    @CsvSource(delimiter = '|', textBlock = """
            mode=collective                      | 1
            mode=collective num_cpus=3           | 3
            mode=collective num_gpus=4 num_cpus=8 | 4
            mode=collective trainers=2           | 2
            """)
    void collectivePlanHasTheBeginnerRulesTrainersAndNoPservers(String spec, int trainers) {
        JobPlan plan = plan(spec);
        assertThat(plan.mode()).isEqualTo(JobMode.COLLECTIVE);
        assertThat(plan.trainers().count()).isEqualTo(trainers);
        assertThat(plan.pservers().count()).isZero();
        assertThat(plan.replicasOf(Role.PSERVER)).isEmpty();
        assertThat(plan.totals()).isEqualTo(plan.trainers().total());
        assertThat(plan.derivations()).first().satisfies(d -> {
            assertThat(d.field()).isEqualTo("mode");
            assertThat(d.value()).isEqualTo("collective");
        });
        assertThat(rule(plan, "pservers")).contains("collective");
    }

    @Test
    void modeDefaultsToParameterServerAndTheDerivationsSaySo() {
        JobPlan plan = plan("num_cpus=2");
        assertThat(plan.mode()).isEqualTo(JobMode.PS);
        assertThat(plan.pservers().count()).isEqualTo(2);
        assertThat(plan.derivations()).first().satisfies(d -> {
            assertThat(d.field()).isEqualTo("mode");
            assertThat(d.value()).isEqualTo("ps");
            assertThat(d.rule()).contains("default");
        });
    }

    @ParameterizedTest(name = "{0} is rejected naming {1}")
    @CsvSource(delimiter = '|', textBlock = """
            mode=collective pservers=2                       | pservers
            mode=collective pserver_cpu=2                    | pserver_cpu
            mode=collective pserver_mem=2Gi                  | pserver_mem
            mode=collective pserver_entry_point=true         | pserver_entry_point
            """)
    void everyPserverFieldOfACollectiveJobIsAnErrorNamingIt(String spec, String field) {
        InvalidJobRequestException e = rejection(spec);
        assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.fields()).containsExactly(field);
            assertThat(v.message()).contains("collective", field);
        });
    }

    @Test
    void allPserverFieldsOfACollectiveJobAreReportedAtOnce() {
        InvalidJobRequestException e = rejection("mode=collective pservers=1 pserver_cpu=1 pserver_mem=1Gi");
        assertThat(e.violations()).flatExtracting(Violation::fields)
                .containsExactlyInAnyOrder("pservers", "pserver_cpu", "pserver_mem");
    }

    @Test
    void collectiveTrainerEnvIsExactlyWhatInitParallelEnvReads() {
        JobPlan plan = plan("mode=collective trainers=3 num_cpus=6 port=8000");
        assertThat(plan.replicasOf(Role.TRAINER).get(1).env()).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                Map.entry("PADDLE_TRAINER_ID", "1"),
                Map.entry("PADDLE_TRAINERS_NUM", "3"),
                Map.entry("PADDLE_TRAINER_ENDPOINTS", "job-trainer-0.job:8000,job-trainer-1.job:8000,job-trainer-2.job:8000"),
                Map.entry("PADDLE_CURRENT_ENDPOINT", "job-trainer-1.job:8000"),
                Map.entry("PADDLE_TRAINING_ROLE", "TRAINER"),
                Map.entry("PADDLE_MASTER", "job-trainer-0.job:8000"),
                Map.entry("PADDLE_DISTRI_BACKEND", "gloo"),
                Map.entry("POD_IP", "job-trainer-1.job"),
                Map.entry("PADDLE_NNODES", "3"),
                Map.entry("PADDLE_JOB_ID", "job"),
                Map.entry("NNODES", "3"),
                Map.entry("RANK", "1"),
                Map.entry("MASTER_ADDR", "job-trainer-0.job"),
                Map.entry("MASTER_PORT", "8000"),
                Map.entry("PADDLE_JOB_NAME", "job"),
                Map.entry("PADDLE_JOB_DATA", "/data/default"),
                Map.entry("PADDLE_JOB_CHECKPOINT_DIR", "/data/default/checkpoints/job"),
                Map.entry("PADDLE_JOB_RESTART_COUNT", "0"),
                Map.entry("OMP_NUM_THREADS", "2"),
                Map.entry("CPU_NUM", "2")));
    }

    @Test
    void everyRankMeetsAtRankZerosEndpointAndOnlyItsOwnEndpointDiffers() {
        JobPlan plan = plan("mode=collective num_cpus=4");
        assertThat(plan.replicas()).allSatisfy(r -> {
            String[] endpoints = r.env().get("PADDLE_TRAINER_ENDPOINTS").split(",");
            assertThat(endpoints).hasSize(4);
            assertThat(r.env().get("PADDLE_CURRENT_ENDPOINT")).isEqualTo(endpoints[r.index()]).startsWith(r.host() + ":");
            assertThat(r.env().get("PADDLE_MASTER")).isEqualTo(endpoints[0]);
        });
    }

    /**
     * Each program asks "where do we meet, how many nodes, which one am I" in its own words
     * (init_parallel_env, paddle.distributed.launch, Kubeflow's PaddleJob, Paddle 3's CLIs): every
     * answer is the same, or two readers in one job would form two groups.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"mode=collective num_cpus=4", "mode=collective trainers=3 num_gpus=6 port=9100",
            "mode=collective trainers=1"})
    void everyNameForTheMasterTheCountAndTheRankSaysTheSame(String spec) {
        JobPlan plan = plan(spec);
        assertThat(plan.replicas()).allSatisfy(r -> {
            Map<String, String> env = r.env();
            assertThat(env.get("MASTER_ADDR") + ":" + env.get("MASTER_PORT"))
                    .isEqualTo(env.get("PADDLE_MASTER"))
                    .isEqualTo(env.get("PADDLE_TRAINER_ENDPOINTS").split(",")[0]);
            assertThat(env.get("POD_IP")).isEqualTo(r.host());
            assertThat(env.get("POD_IP") + ":" + plan.ports().first()).isEqualTo(env.get("PADDLE_CURRENT_ENDPOINT"));
            assertThat(env.get("NNODES")).isEqualTo(env.get("PADDLE_NNODES")).isEqualTo(env.get("PADDLE_TRAINERS_NUM"))
                    .isEqualTo(Integer.toString(plan.trainers().count()));
            assertThat(env.get("RANK")).isEqualTo(env.get("PADDLE_TRAINER_ID")).isEqualTo(Integer.toString(r.index()));
            assertThat(env.get("PADDLE_JOB_ID")).isEqualTo(plan.name());
        });
    }

    /**
     * Paddle 3.3.1's launcher, given PADDLE_TRAINER_ENDPOINTS, counts its nodes as the distinct hosts in it: two
     * trainers placed on one node (Slurm) would each be a group of one. Trainers that start it get no list, and
     * the names it reads instead say the same as for every other reader.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"python -m paddle.distributed.launch train.py", "fleetrun --log_dir log train.py",
            "cd src && /venv/bin/python3 -m paddle.distributed.launch run_check"})
    void trainersThatStartTheLauncherGetNoEndpointListForItToCountHostsIn(String entryPoint) {
        JobPlan plan = plan(JobRequests.spec("mode=collective trainers=3").entryPoint(entryPoint).build());

        assertThat(plan.replicas()).allSatisfy(r -> {
            Map<String, String> env = r.env();
            assertThat(env).doesNotContainKey("PADDLE_TRAINER_ENDPOINTS");
            assertThat(env.get("MASTER_ADDR") + ":" + env.get("MASTER_PORT")).isEqualTo(env.get("PADDLE_MASTER"))
                    .isEqualTo(plan.replicasOf(Role.TRAINER).get(0).host() + ":" + plan.ports().first());
            assertThat(env).containsEntry("PADDLE_NNODES", "3").containsEntry("POD_IP", r.host())
                    .containsEntry("PADDLE_TRAINER_ID", Integer.toString(r.index()));
        });
        assertThat(rule(plan, "env")).contains("PADDLE_TRAINER_ENDPOINTS", "distinct hosts");
    }

    @Test
    void trainersThatDoNotStartTheLauncherKeepTheEndpointListThatFleetReads() {
        JobPlan plan = plan(JobRequests.spec("mode=collective trainers=2").entryPoint("python train.py").build());

        assertThat(plan.replicas()).allSatisfy(r -> assertThat(r.env()).containsKey("PADDLE_TRAINER_ENDPOINTS"));
        assertThat(plan.derivations()).noneMatch(d -> d.field().equals("env"));
    }

    @ParameterizedTest(name = "{0} is reserved")
    @CsvSource({"MASTER_ADDR", "MASTER_PORT", "NNODES", "RANK", "PADDLE_NNODES", "PADDLE_JOB_ID", "POD_IP"})
    void theLaunchersAndTheClisNamesAreReservedLikeEveryInjectedName(String name) {
        assertThat(PaddleEnv.isReserved(name)).isTrue();
    }

    @Test
    void gpuCollectiveTrainersUseNccl() {
        assertThat(plan("mode=collective num_gpus=2").replicas())
                .allSatisfy(r -> assertThat(r.env()).containsEntry("PADDLE_DISTRI_BACKEND", "nccl"));
    }

    @Test
    void collectiveTrainersGetNoParameterServerOrPaddleV2Names() {
        assertThat(plan("mode=collective num_cpus=2").replicas()).allSatisfy(r -> assertThat(r.env())
                .doesNotContainKeys("TRAINING_ROLE", "PADDLE_PSERVERS_IP_PORT_LIST", "PADDLE_PSERVERS", "PADDLE_PORT")
                .allSatisfy((name, value) -> assertThat(name).doesNotStartWith("PADDLE_INIT_")));
    }

    @ParameterizedTest(name = "{0}: trainer {1}, pserver {2} threads")
    @CsvSource(delimiter = '|', textBlock = """
            num_cpus=2                       | 1 | 1
            trainers=2 num_cpus=8            | 4 | 1
            trainers=3 num_cpus=1            | 1 | 1
            trainer_cpu=3 pserver_cpu=2      | 3 | 2
            """)
    void threadsComeFromEachReplicasCpuShare(String spec, String trainerThreads, String pserverThreads) {
        JobPlan plan = plan(spec);
        assertThat(plan.replicasOf(Role.TRAINER)).allSatisfy(r -> assertThat(r.env())
                .containsEntry("OMP_NUM_THREADS", trainerThreads).containsEntry("CPU_NUM", trainerThreads));
        assertThat(plan.replicasOf(Role.PSERVER)).allSatisfy(r -> assertThat(r.env())
                .containsEntry("OMP_NUM_THREADS", pserverThreads).containsEntry("CPU_NUM", pserverThreads));
    }

    @Test
    void aUsersOwnThreadCountsWin() {
        JobPlan plan = plan(request("mode=collective num_cpus=2", Map.of("OMP_NUM_THREADS", "8", "CPU_NUM", "3")));
        assertThat(plan.replicas()).allSatisfy(r -> assertThat(r.env())
                .containsEntry("OMP_NUM_THREADS", "8").containsEntry("CPU_NUM", "3"));
        assertThat(PaddleEnv.isReserved("OMP_NUM_THREADS")).isFalse();
        assertThat(PaddleEnv.isReserved("PADDLE_MASTER")).isTrue();
        assertThat(PaddleEnv.isReserved("PADDLE_CURRENT_ENDPOINT")).isTrue();
    }
}

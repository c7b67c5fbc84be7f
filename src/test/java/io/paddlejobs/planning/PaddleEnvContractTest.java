package io.paddlejobs.planning;

import static io.paddlejobs.planning.PlannerFixtures.plan;
import static io.paddlejobs.planning.PlannerFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** docs/environment.md: the environment every replica gets, for three generations of Paddle at once. */
class PaddleEnvContractTest {

    /** Three trainers with two GPUs each, two pservers, ports that are not the defaults. */
    private static final JobPlan PLAN =
            plan("trainers=3 num_gpus=6 pservers=2 port=8000 ports_num=2 ports_num_for_sparse=3");

    private static final String PSERVER_HOSTS = "job-pserver-0.job,job-pserver-1.job";
    private static final String PSERVER_ENDPOINTS = "job-pserver-0.job:8000,job-pserver-1.job:8000";
    private static final String TRAINER_ENDPOINTS =
            "job-trainer-0.job:8000,job-trainer-1.job:8000,job-trainer-2.job:8000";

    /** The eight seed names Paddle v2 also reads with the PADDLE_INIT_ prefix. */
    private static final List<String> V2_FLAGS = List.of("PSERVERS", "PORT", "PORTS_NUM", "PORTS_NUM_FOR_SPARSE",
            "NUM_GRADIENT_SERVERS", "TRAINER_ID", "TRAINER_COUNT", "USE_GPU");

    private static Map<String, String> env(Role role, int index) {
        return PLAN.replicasOf(role).get(index).env();
    }

    /** Seed names, each repeated as PADDLE_INIT_*, then the fleet and platform names. */
    private static Map<String, String> expected(Map<String, String> seed, String role, String podIp) {
        Map<String, String> env = new LinkedHashMap<>();
        seed.forEach((flag, value) -> env.put("PADDLE_" + flag, value));
        seed.forEach((flag, value) -> env.put("PADDLE_INIT_" + flag, value));
        env.putAll(Map.of("TRAINING_ROLE", role, "PADDLE_TRAINING_ROLE", role,
                "PADDLE_PSERVERS_IP_PORT_LIST", PSERVER_ENDPOINTS, "PADDLE_TRAINER_ENDPOINTS", TRAINER_ENDPOINTS,
                "PADDLE_TRAINERS_NUM", "3", "POD_IP", podIp,
                "PADDLE_JOB_NAME", "job", "PADDLE_JOB_DATA", "/data/default"));
        env.putAll(Map.of("PADDLE_JOB_CHECKPOINT_DIR", "/data/default/checkpoints/job", "PADDLE_JOB_RESTART_COUNT", "0"));
        env.putAll(Map.of("OMP_NUM_THREADS", "1", "CPU_NUM", "1"));
        return env;
    }

    private static Map<String, String> seed(String trainerId) {
        Map<String, String> seed = new LinkedHashMap<>();
        seed.putAll(Map.of("PSERVERS", PSERVER_HOSTS, "PORT", "8000", "PORTS_NUM", "2", "PORTS_NUM_FOR_SPARSE", "3",
                "NUM_GRADIENT_SERVERS", "3", "TRAINER_COUNT", "2", "USE_GPU", "true"));
        if (trainerId != null) {
            seed.put("TRAINER_ID", trainerId);
        }
        return seed;
    }

    @Test
    void pserverEnvIsExactlyTheContract() {
        assertThat(env(Role.PSERVER, 1)).containsExactlyInAnyOrderEntriesOf(
                expected(seed(null), "PSERVER", "job-pserver-1.job"));
    }

    @Test
    void trainerEnvIsExactlyTheContract() {
        assertThat(env(Role.TRAINER, 2)).containsExactlyInAnyOrderEntriesOf(
                expected(seed("2"), "TRAINER", "job-trainer-2.job"));
    }

    @Test
    void trainerIdIsEachTrainersIndexAndIsNeverGivenToPservers() {
        assertThat(PLAN.replicasOf(Role.TRAINER)).allSatisfy(r -> assertThat(r.env())
                .contains(entry("PADDLE_TRAINER_ID", "" + r.index()), entry("PADDLE_INIT_TRAINER_ID", "" + r.index())));
        assertThat(PLAN.replicasOf(Role.PSERVER)).allSatisfy(r -> assertThat(r.env())
                .doesNotContainKeys("PADDLE_TRAINER_ID", "PADDLE_INIT_TRAINER_ID"));
    }

    @ParameterizedTest(name = "{0} -> PADDLE_TRAINER_COUNT={1}")
    @CsvSource(delimiter = '|', textBlock = """
            trainers=2 num_gpus=8     | 4
            num_gpus=3 num_cpus=12    | 1
            trainers=2 num_cpus=8     | 4
            trainers=3 num_cpus=1     | 1
            trainers=4 num_cpus=6     | 1
            trainer_cpu=3             | 3
            """)
    void trainerCountIsTheDevicesOfOneTrainerNotTheNumberOfTrainers(String spec, String devices) {
        JobPlan plan = plan(spec);
        assertThat(plan.replicas()).allSatisfy(r -> assertThat(r.env())
                .containsEntry("PADDLE_TRAINER_COUNT", devices)
                .containsEntry("PADDLE_NUM_GRADIENT_SERVERS", "" + plan.trainers().count())
                .containsEntry("PADDLE_TRAINERS_NUM", "" + plan.trainers().count()));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", "num_gpus=4", "num_cpus=3 use_gpu=true", "trainers=2 pservers=5 ports_num_for_sparse=0",
            "trainers=4 num_gpus=8 pservers=1 port=9000 ports_num=3"})
    void v2SeesExactlyTheEightSeedNamesAsPaddleInitFlagsAndNoEmptyValue(String spec) {
        for (Replica replica : plan(spec).replicas()) {
            Map<String, String> env = replica.env();
            List<String> flags = new ArrayList<>();
            env.keySet().stream().filter(n -> n.startsWith("PADDLE_INIT_")).forEach(n -> flags.add(n.substring(12)));
            List<String> expected = new ArrayList<>(V2_FLAGS);
            if (replica.role() == Role.PSERVER) {
                expected.remove("TRAINER_ID");
            }
            assertThat(flags).as(replica.id()).containsExactlyInAnyOrderElementsOf(expected);
            flags.forEach(flag -> assertThat(env.get("PADDLE_INIT_" + flag)).as(replica.id() + " " + flag)
                    .isEqualTo(env.get("PADDLE_" + flag)));
            assertThat(env).as(replica.id()).allSatisfy((name, value) -> assertThat(value).as(name).isNotEmpty());
        }
    }

    @Test
    void podIpIsThisReplicasEntryInTheEndpointLists() {
        assertThat(PLAN.replicas()).allSatisfy(r -> {
            String list = r.env().get(
                    r.role() == Role.PSERVER ? "PADDLE_PSERVERS_IP_PORT_LIST" : "PADDLE_TRAINER_ENDPOINTS");
            String podIp = r.env().get("POD_IP");
            assertThat(podIp).isEqualTo(r.host());
            assertThat(list.split(",")[r.index()]).isEqualTo(podIp + ":8000");
            if (r.role() == Role.PSERVER) {
                assertThat(r.env().get("PADDLE_PSERVERS").split(",")[r.index()]).isEqualTo(podIp);
            }
        });
    }

    @Test
    void everyReplicaSeesTheSameListsInIndexOrder() {
        assertThat(PLAN.replicas()).hasSize(5).allSatisfy(r -> assertThat(r.env()).contains(
                entry("PADDLE_PSERVERS", PSERVER_HOSTS), entry("PADDLE_INIT_PSERVERS", PSERVER_HOSTS),
                entry("PADDLE_PSERVERS_IP_PORT_LIST", PSERVER_ENDPOINTS),
                entry("PADDLE_TRAINER_ENDPOINTS", TRAINER_ENDPOINTS)));
    }

    @Test
    void rolesAndPortAreNamedTheWayFleetReadsThem() {
        assertThat(PLAN.replicas()).allSatisfy(r -> assertThat(r.env())
                .containsEntry("TRAINING_ROLE", r.role().name())
                .containsEntry("PADDLE_TRAINING_ROLE", r.role().name())
                .containsEntry("PADDLE_PORT", "8000"));
        assertThat(env(Role.PSERVER, 0)).containsEntry("TRAINING_ROLE", "PSERVER");
        assertThat(env(Role.TRAINER, 0)).containsEntry("TRAINING_ROLE", "TRAINER");
    }

    /**
     * PADDLE_TRAINERS is a list of trainer IPs to Paddle 1.x; the launcher's and the CLIs' names would
     * tell a ps job's launcher to form a collective group (docs/environment.md): a ps job has none of them.
     */
    @Test
    void namesThatMeanOtherThingsInOtherGenerationsAreNeverInjected() {
        assertThat(PLAN.replicas()).allSatisfy(r -> assertThat(r.env())
                .doesNotContainKeys("PADDLE_TRAINERS", "PADDLE_MASTER", "PADDLE_NNODES", "PADDLE_JOB_ID",
                        "NNODES", "RANK", "MASTER_ADDR", "MASTER_PORT"));
    }

    @Test
    void jobNameAndDataPathComeFromTheJobAndTheSite() {
        JobPlan plan = plan("name=fit-a-line num_cpus=2");
        assertThat(plan.replicas()).allSatisfy(r -> assertThat(r.env())
                .containsEntry("PADDLE_JOB_NAME", "fit-a-line")
                .containsEntry("PADDLE_JOB_DATA", "/data/default")
                .containsEntry("PADDLE_PSERVERS", "fit-a-line-pserver-0.fit-a-line,fit-a-line-pserver-1.fit-a-line"));
    }

    @Test
    void userEnvIsAppendedAfterTheInjectedNames() {
        JobPlan plan = plan(request("num_cpus=2", Map.of("DATASET", "mnist", "EPOCHS", "3")));
        assertThat(plan.replicas()).allSatisfy(r -> {
            List<String> names = new ArrayList<>(r.env().keySet());
            assertThat(names.subList(names.size() - 2, names.size())).containsExactlyInAnyOrder("DATASET", "EPOCHS");
            assertThat(r.env()).containsEntry("DATASET", "mnist").containsEntry("EPOCHS", "3")
                    .containsKeys("PADDLE_PSERVERS", "POD_IP", "PADDLE_JOB_DATA");
        });
    }

    @ParameterizedTest(name = "{0} reserved: {1}")
    @CsvSource({"PADDLE_PSERVERS,true", "POD_IP,true", "PADDLE_JOB_DATA,true", "PADDLE_INIT_ANYTHING,true",
            "TRAINING_ROLE,true", "DATASET,false"})
    void usersMayNotSetAnInjectedNameOrAnyPaddleInitFlag(String name, boolean reserved) {
        assertThat(PaddleEnv.isReserved(name)).isEqualTo(reserved);
    }
}

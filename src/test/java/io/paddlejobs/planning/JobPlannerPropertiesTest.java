package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plan's invariants for any beginner request: three numbers in, a consistent job out.
 * Inputs are generated from a fixed seed, so a failure names a request that reproduces.
 */
class JobPlannerPropertiesTest {

    private static final int TRIES = 1000;

    private static final long MI = 1024L * 1024;

    private static final Set<String> V2_NAMES = Set.of("PADDLE_INIT_PSERVERS", "PADDLE_INIT_PORT",
            "PADDLE_INIT_PORTS_NUM", "PADDLE_INIT_PORTS_NUM_FOR_SPARSE", "PADDLE_INIT_NUM_GRADIENT_SERVERS",
            "PADDLE_INIT_TRAINER_ID", "PADDLE_INIT_TRAINER_COUNT", "PADDLE_INIT_USE_GPU");

    /** Identical on every replica: the lists, and the counts they imply. */
    private static final List<String> SHARED = List.of("PADDLE_PSERVERS", "PADDLE_PSERVERS_IP_PORT_LIST",
            "PADDLE_TRAINER_ENDPOINTS", "PADDLE_NUM_GRADIENT_SERVERS", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_COUNT",
            "PADDLE_PORT", "PADDLE_USE_GPU", "PADDLE_JOB_NAME", "PADDLE_JOB_DATA");

    /** num_gpus 0..8, num_cpus 1..16, memory 64Mi..8Gi in bytes. */
    static Stream<Arguments> beginnerRequests() {
        Random random = new Random(20171);
        return Stream.generate(() -> Arguments.of(random.nextInt(9), 1 + random.nextInt(16),
                64 * MI + (long) (random.nextDouble() * (8192 - 64) * MI))).limit(TRIES);
    }

    private static JobPlan plan(int numGpus, int numCpus, long memoryBytes) {
        return PlannerFixtures.plan(JobRequests.named("job", "python train.py").numGpus(numGpus).numCpus(numCpus)
                .memory(new Memory(memoryBytes)).build());
    }

    @ParameterizedTest(name = "num_gpus={0} num_cpus={1} memory={2}")
    @MethodSource("beginnerRequests")
    void beginnerTopologyFollowsTheRules(int numGpus, int numCpus, long memory) {
        JobPlan plan = plan(numGpus, numCpus, memory);
        int trainers = plan.trainers().count();
        Resources each = plan.trainers().perReplica();

        assertThat(trainers).isEqualTo(numGpus > 0 ? numGpus : numCpus);
        assertThat(plan.pservers().count()).isEqualTo(trainers);
        assertThat(trainers * each.gpu()).isEqualTo(numGpus);
        assertThat(numCpus * 1000L - each.cpu().millis() * trainers).isBetween(0L, trainers - 1L);
        assertThat(memory - each.memory().bytes() * trainers).isBetween(0L, trainers * MI - 1);
        assertThat(plan.useGpu()).isEqualTo(numGpus > 0);
        assertThat(plan.warnings()).isEmpty();
    }

    @ParameterizedTest(name = "num_gpus={0} num_cpus={1} memory={2}")
    @MethodSource("beginnerRequests")
    void totalsAreTheSumOverReplicas(int numGpus, int numCpus, long memory) {
        JobPlan plan = plan(numGpus, numCpus, memory);
        Resources sum = plan.replicas().stream().map(r -> plan.role(r.role()).perReplica())
                .reduce(new Resources(new Cpu(0), 0, new Memory(0)), Resources::plus);
        assertThat(plan.totals()).isEqualTo(sum);
        assertThat(plan.replicas()).hasSize(plan.trainers().count() + plan.pservers().count());
    }

    @ParameterizedTest(name = "num_gpus={0} num_cpus={1} memory={2}")
    @MethodSource("beginnerRequests")
    void everyReplicaGetsTheSameWiringAndAValidV2Environment(int numGpus, int numCpus, long memory) {
        JobPlan plan = plan(numGpus, numCpus, memory);
        Map<String, String> first = plan.replicas().get(0).env();
        for (Replica replica : plan.replicas()) {
            Map<String, String> env = replica.env();
            for (String name : SHARED) {
                assertThat(env.get(name)).as(replica.id() + " " + name).isNotNull().isEqualTo(first.get(name));
            }
            assertThat(env.values()).as(replica.id()).allSatisfy(value -> assertThat(value).isNotEmpty());
            Set<String> v2 = env.keySet().stream().filter(n -> n.startsWith("PADDLE_INIT_")).collect(Collectors.toSet());
            assertThat(V2_NAMES).as(replica.id()).containsAll(v2);
            v2.forEach(n -> assertThat(env.get(n)).isEqualTo(env.get("PADDLE_" + n.substring("PADDLE_INIT_".length()))));
            String list = replica.role() == Role.PSERVER ? "PADDLE_PSERVERS_IP_PORT_LIST" : "PADDLE_TRAINER_ENDPOINTS";
            assertThat(env.get(list).split(",")[replica.index()]).isEqualTo(env.get("POD_IP") + ":7164");
        }
    }
}

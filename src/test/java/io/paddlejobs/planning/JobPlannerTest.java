package io.paddlejobs.planning;

import static io.paddlejobs.planning.PlannerFixtures.plan;
import static io.paddlejobs.planning.PlannerFixtures.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JobPlannerTest {

    private static void assertTrainers(JobPlan plan, int count, int gpu, String cpu, String mem) {
        RolePlan t = plan.trainers();
        assertThat(t.count()).as("trainers").isEqualTo(count);
        assertThat(t.perReplica().gpu()).as("trainer_gpu").isEqualTo(gpu);
        assertThat(t.perReplica().cpu()).as("trainer_cpu").hasToString(cpu);
        assertThat(t.perReplica().memory()).as("trainer_mem").hasToString(mem);
    }

    private static String rule(JobPlan plan, String field) {
        return plan.derivations().stream().filter(d -> d.field().equals(field)).map(Derivation::rule)
                .findFirst().orElseThrow(() -> new AssertionError("no derivation for " + field));
    }

    @ParameterizedTest(name = "{0} -> {1} trainers x ({2} GPU, {3} CPU, {4})")
    @CsvSource(delimiter = '|', textBlock = """
            num_gpus=1                          | 1 | 1 | 1    | 1Gi
            num_gpus=4                          | 4 | 1 | 250m | 256Mi
            num_gpus=2 num_cpus=4 memory=8Gi    | 2 | 1 | 2    | 4Gi
            num_gpus=8 num_cpus=16 memory=16Gi  | 8 | 1 | 2    | 2Gi
            """)
    void planWhenOnlyGpusGivenGivesOneTrainerPerGpu(String spec, int trainers, int gpu, String cpu, String mem) {
        JobPlan plan = plan(spec);
        assertTrainers(plan, trainers, gpu, cpu, mem);
        assertThat(rule(plan, "trainers")).contains("one trainer per GPU");
    }

    @ParameterizedTest(name = "''{0}'' -> {1} trainers x ({2} CPU, {3})")
    @CsvSource(delimiter = '|', textBlock = """
            ''                                  | 1 | 1 | 1Gi
            num_cpus=4                          | 4 | 1 | 256Mi
            num_gpus=0 num_cpus=3 memory=3Gi    | 3 | 1 | 1Gi
            """)
    void planWithoutGpusGivesOneTrainerPerCpu(String spec, int trainers, String cpu, String mem) {
        JobPlan plan = plan(spec);
        assertTrainers(plan, trainers, 0, cpu, mem);
        assertThat(rule(plan, "trainers")).contains("one trainer per CPU");
    }

    @ParameterizedTest(name = "{0} -> {1} CPU per trainer")
    @CsvSource(delimiter = '|', textBlock = """
            num_gpus=3 num_cpus=1   | 333m
            num_gpus=4 num_cpus=2   | 500m
            num_gpus=2 num_cpus=3   | 1500m
            num_gpus=8 num_cpus=5   | 625m
            trainers=3 num_cpus=1   | 333m
            """)
    void planSplitsCpusInMillicoresWhenTheyDoNotDivideEvenly(String spec, String cpu) {
        JobPlan plan = plan(spec);
        assertThat(plan.trainers().perReplica().cpu()).hasToString(cpu);
        assertThat(rule(plan, "trainer_cpu")).contains("millicores");
    }

    @ParameterizedTest(name = "{0} -> {1} per trainer")
    @CsvSource(delimiter = '|', textBlock = """
            num_cpus=2 memory=1Gi    | 512Mi | true
            num_cpus=2 memory=1G     | 500M  | true
            num_cpus=4 memory=1.5Gi  | 384Mi | true
            num_cpus=3 memory=1Gi    | 341Mi | false
            num_cpus=3 memory=1G     | 317Mi | false
            """)
    void planSplitsMemoryEvenlyOrRoundsDownToWholeMebibytes(String spec, String mem, boolean exact) {
        JobPlan plan = plan(spec);
        assertThat(plan.trainers().perReplica().memory()).hasToString(mem);
        assertThat(rule(plan, "trainer_mem").contains("rounded down")).isEqualTo(!exact);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"num_gpus=4", "num_cpus=3", "num_gpus=2 num_cpus=8 memory=4Gi"})
    void planGivesOnePserverPerTrainerWithTheDefaultPserverResources(String spec) {
        JobPlan plan = plan(spec);
        assertThat(plan.pservers().count()).isEqualTo(plan.trainers().count());
        assertThat(plan.pservers().perReplica()).isEqualTo(new Resources(Cpu.cores(1), 0, Memory.parse("1Gi")));
        assertThat(rule(plan, "pservers")).isEqualTo("one pserver per trainer");
    }

    @ParameterizedTest(name = "{0} -> {1} x ({2} GPU, {3} CPU, {4}), {5} pservers x ({6} CPU, {7})")
    @CsvSource(delimiter = '|', textBlock = """
            trainers=2                            | 2 | 0 | 500m | 512Mi | 2 | 1 | 1Gi
            trainers=2 num_cpus=4 memory=4Gi      | 2 | 0 | 2    | 2Gi   | 2 | 1 | 1Gi
            trainers=2 num_gpus=4                 | 2 | 2 | 500m | 512Mi | 2 | 1 | 1Gi
            trainer_gpu=2 num_gpus=4              | 2 | 2 | 500m | 512Mi | 2 | 1 | 1Gi
            trainer_gpu=1 num_gpus=2 trainers=2   | 2 | 1 | 500m | 512Mi | 2 | 1 | 1Gi
            trainer_cpu=2 num_cpus=8              | 4 | 0 | 2    | 256Mi | 4 | 1 | 1Gi
            trainer_cpu=4                         | 1 | 0 | 4    | 1Gi   | 1 | 1 | 1Gi
            trainer_mem=3Gi num_cpus=2            | 2 | 0 | 1    | 3Gi   | 2 | 1 | 1Gi
            trainer_mem=3Gi num_cpus=2 memory=6Gi | 2 | 0 | 1    | 3Gi   | 2 | 1 | 1Gi
            pservers=1 num_cpus=4                 | 4 | 0 | 1    | 256Mi | 1 | 1 | 1Gi
            pserver_cpu=3 num_cpus=2              | 2 | 0 | 1    | 512Mi | 2 | 3 | 1Gi
            pserver_mem=4Gi num_gpus=2            | 2 | 1 | 500m | 512Mi | 2 | 1 | 4Gi
            trainers=4 trainer_gpu=2 trainer_cpu=3 trainer_mem=2Gi pservers=2 pserver_cpu=2 pserver_mem=512Mi \
                                                  | 4 | 2 | 3    | 2Gi   | 2 | 2 | 512Mi
            """)
    void planWithAnAdvancedFieldOverridesItAndStillDerivesTheRest(String spec, int trainers, int gpu, String cpu,
            String mem, int pservers, String pserverCpu, String pserverMem) {
        JobPlan plan = plan(spec);
        assertTrainers(plan, trainers, gpu, cpu, mem);
        assertThat(plan.pservers().count()).as("pservers").isEqualTo(pservers);
        assertThat(plan.pservers().perReplica().cpu()).as("pserver_cpu").hasToString(pserverCpu);
        assertThat(plan.pservers().perReplica().memory()).as("pserver_mem").hasToString(pserverMem);
        Map<String, String> given = Arrays.stream(spec.split("\\s+")).map(p -> p.split("="))
                .collect(Collectors.toMap(p -> p[0], p -> p[1]));
        given.keySet().stream().filter(f -> !List.of("num_gpus", "num_cpus", "memory").contains(f))
                .forEach(f -> assertThat(rule(plan, f)).as("rule for given %s", f).isEqualTo("given"));
    }

    @ParameterizedTest(name = "{0} -> totals {1} CPU, {2} GPU, {3}")
    @CsvSource(delimiter = '|', textBlock = """
            num_gpus=3 num_cpus=1 memory=3Gi                        | 3999m | 3 | 6Gi
            num_cpus=4                                              | 8     | 0 | 5Gi
            num_gpus=2 pservers=1 pserver_cpu=2 pserver_mem=512Mi   | 3     | 2 | 1536Mi
            """)
    void planTotalsIncludeThePservers(String spec, String cpu, int gpu, String memory) {
        Resources totals = plan(spec).totals();
        assertThat(totals.cpu()).hasToString(cpu);
        assertThat(totals.gpu()).isEqualTo(gpu);
        assertThat(totals.memory()).hasToString(memory);
    }

    @ParameterizedTest(name = "{0} is rejected naming {1}")
    @CsvSource(delimiter = '|', textBlock = """
            trainers=2 trainer_gpu=1 num_gpus=4       | trainers,trainer_gpu,num_gpus  | = 2, but num_gpus is 4
            trainer_gpu=1 num_gpus=0                  | num_cpus,trainer_gpu,num_gpus  | but num_gpus is 0
            num_gpus=4 trainer_gpu=3                  | num_gpus,trainer_gpu           | not a multiple of trainer_gpu
            trainers=3 num_gpus=4                     | trainers,num_gpus              | cannot be split evenly over 3
            trainers=2 trainer_cpu=2 num_cpus=3       | trainers,trainer_cpu,num_cpus  | = 4, but num_cpus is 3
            num_cpus=5 trainer_cpu=2                  | num_cpus,trainer_cpu           | not a multiple of trainer_cpu
            num_gpus=2 num_cpus=4 trainer_cpu=1       | num_gpus,trainer_cpu,num_cpus  | = 2, but num_cpus is 4
            trainers=2 trainer_mem=1Gi memory=1Gi     | trainers,trainer_mem,memory    | = 2Gi, but memory is 1Gi
            num_gpus=2 trainer_mem=1Gi memory=1Gi     | num_gpus,trainer_mem,memory    | = 2Gi, but memory is 1Gi
            trainers=64 memory=32Mi                   | trainers,memory                | less than 1Mi each
            num_cpus=64 memory=32Mi                   | num_cpus,memory                | less than 1Mi each
            """)
    void planRejectsAContradictionNamingEveryFieldInvolved(String spec, String fields, String message) {
        InvalidJobRequestException e = rejection(spec);
        assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.fields()).containsExactlyInAnyOrder(fields.split(","));
            assertThat(v.message()).contains(message);
        });
    }

    @ParameterizedTest(name = "{0} breaks {2}")
    @CsvSource(delimiter = '|', textBlock = """
            trainers=65                                     | trainers  | max-trainers | the limit is 64 | 65 trainers
            num_cpus=65                                     | num_cpus  | max-trainers | the limit is 64 | 65 trainers
            pservers=65                                     | pservers  | max-pservers | the limit is 64 | 65 pservers
            num_gpus=17                                     | num_gpus  | max-gpus     | the limit is 16 | 17 GPUs
            trainers=4 trainer_gpu=1073741824               | num_gpus  | max-gpus     | the limit is 16 | 4294967296 GPUs
            trainer_cpu=200 pserver_cpu=57                  | num_cpus  | max-cpus     | the limit is 256 | 257 CPUs
            memory=512Gi                                    | memory    | max-memory   | the limit is 512Gi | 513Gi
            """)
    void planRejectsAJobOverAConfiguredLimitSayingTheLimitAndItsKey(String spec, String field, String key,
            String limit, String amount) {
        assertThat(rejection(spec).violations()).filteredOn(v -> v.message().contains(key)).singleElement()
                .satisfies(v -> {
                    assertThat(v.fields()).containsExactly(field);
                    assertThat(v.message()).contains(limit, "(paddlejobs.limits." + key + ")", amount);
                });
    }

    @Test
    void planRejectsResourcesTooLargeToCountInsteadOfOverflowing() {
        assertThat(rejection("trainers=2 trainer_mem=5e18").violations())
                .anySatisfy(v -> assertThat(v.message()).contains("more than can be counted"));
    }

    @Test
    void planReportsEveryBrokenRuleAtOnce() {
        InvalidJobRequestException e = rejection("trainers=65 trainer_gpu=1 num_gpus=4 port=65535");
        assertThat(e.violations()).extracting(Violation::fields).contains(
                List.of("trainers", "trainer_gpu", "num_gpus"), List.of("trainers"), List.of("pservers"),
                List.of("num_gpus"), List.of("port", "ports_num", "ports_num_for_sparse"));
    }

    @ParameterizedTest(name = "{0} -> accepted: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            port=65534                                              | true
            port=65535 ports_num_for_sparse=0                       | true
            port=65500 ports_num=32 ports_num_for_sparse=4          | true
            port=65535                                              | false
            port=65500 ports_num=32 ports_num_for_sparse=5          | false
            """)
    void planRejectsAPortRangeThatRunsPastTheLastPort(String spec, boolean accepted) {
        if (accepted) {
            assertThat(plan(spec).ports().last()).isLessThanOrEqualTo(65535);
        } else {
            assertThat(rejection(spec).violations()).singleElement().satisfies(v -> {
                assertThat(v.fields()).containsExactly("port", "ports_num", "ports_num_for_sparse");
                assertThat(v.message()).contains("65536", "past the last port 65535");
            });
        }
    }

    @ParameterizedTest(name = "{0} -> use_gpu {1}, warning: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            use_gpu=true               | true  | asks for no GPUs
            use_gpu=false num_gpus=2   | false | asks for 2 GPUs
            use_gpu=true num_gpus=2    | true  |
            num_gpus=2                 | true  |
            ''                         | false |
            """)
    void planWarnsButDoesNotFailWhenUseGpuContradictsTheGpusAskedFor(String spec, boolean useGpu, String warning) {
        JobPlan plan = plan(spec);
        assertThat(plan.useGpu()).isEqualTo(useGpu);
        assertThat(plan.replicas()).allSatisfy(r -> assertThat(r.env()).containsEntry("PADDLE_USE_GPU", "" + useGpu));
        if (warning == null) {
            assertThat(plan.warnings()).isEmpty();
        } else {
            assertThat(plan.warnings()).singleElement().asString().contains("use_gpu", warning);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", "num_gpus=4", "num_cpus=3 memory=1Gi", "trainers=2 trainer_gpu=1 pservers=1 use_gpu=true"})
    void planRecordsTheRuleBehindEveryDerivedNumber(String spec) {
        JobPlan plan = plan(spec);
        Map<String, Function<JobPlan, Object>> numbers = Map.of(
                "trainers", p -> p.trainers().count(),
                "trainer_gpu", p -> p.trainers().perReplica().gpu(),
                "trainer_cpu", p -> p.trainers().perReplica().cpu(),
                "trainer_mem", p -> p.trainers().perReplica().memory(),
                "pservers", p -> p.pservers().count(),
                "pserver_cpu", p -> p.pservers().perReplica().cpu(),
                "pserver_mem", p -> p.pservers().perReplica().memory(),
                "use_gpu", JobPlan::useGpu,
                "mode", p -> p.mode().label(),
                "trainer_count", p -> p.replicasOf(Role.TRAINER).get(0).env().get("PADDLE_TRAINER_COUNT"));
        assertThat(plan.derivations()).extracting(Derivation::field)
                .containsExactlyInAnyOrderElementsOf(numbers.keySet());
        assertThat(plan.derivations()).allSatisfy(d -> {
            assertThat(d.value()).as(d.field()).isEqualTo(String.valueOf(numbers.get(d.field()).apply(plan)));
            assertThat(d.rule()).as(d.field()).isNotBlank();
        });
    }

    @Test
    void planFillsInDefaultsAndRunsPserversWithTheTrainersEntryPointUnlessTold() {
        JobPlan plan = plan("num_cpus=2");
        assertThat(plan).extracting(JobPlan::image, JobPlan::namespace, JobPlan::ports)
                .containsExactly("paddlepaddle/paddle:2.6.1", "default", new Ports(7164, 1, 1));
        assertThat(plan.pservers().entryPoint()).isEqualTo(plan.trainers().entryPoint()).isEqualTo("python train.py");
        JobPlan told = plan("pserver_entry_point=paddle-pserver image=my/img:1");
        assertThat(told).extracting(p -> p.pservers().entryPoint(), JobPlan::image)
                .containsExactly("paddle-pserver", "my/img:1");
        assertThat(plan.replicas()).extracting(Replica::id)
                .containsExactly("pserver-0", "pserver-1", "trainer-0", "trainer-1");
    }
}

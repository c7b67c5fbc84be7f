package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** GPU jobs that can run: a CUDA image where none is named, and per-GPU floors of CPU and memory. */
class GpuPlanningTest {

    private static final PlanningPolicy WITH_GPU_DEFAULTS = new PlanningPolicy(PlannerFixtures.POLICY.defaults(),
            PlannerFixtures.POLICY.limits(),
            new PlanningPolicy.Gpu("paddlepaddle/paddle:2.6.1-gpu", Cpu.cores(2), Memory.parse("8Gi")));

    private static JobPlan plan(String spec) {
        return new JobPlanner(WITH_GPU_DEFAULTS).plan(PlannerFixtures.request(spec, Map.of()),
                PlannerFixtures.NAMESPACE, PlannerFixtures.SITE);
    }

    @Test
    void beginnerRequestForFourGpusGetsTheGpuImageAndPerGpuFloorsNotAQuarterOfTheDefaultMemory() {
        JobPlan plan = plan("num_gpus=4");

        assertThat(plan.image()).isEqualTo("paddlepaddle/paddle:2.6.1-gpu");
        assertThat(plan.trainers().perReplica().memory()).isEqualTo(Memory.parse("8Gi"));
        assertThat(plan.trainers().perReplica().cpu()).isEqualTo(Cpu.cores(2));
        assertThat(plan.derivations()).anySatisfy(d -> {
            assertThat(d.field()).isEqualTo("trainer_mem");
            assertThat(d.value()).isEqualTo("8Gi");
            assertThat(d.rule()).contains("per-GPU floor", "paddlejobs.defaults.trainer-mem-per-gpu", "256Mi");
        }).anySatisfy(d -> {
            assertThat(d.field()).isEqualTo("trainer_cpu");
            assertThat(d.rule()).contains("per-GPU floor", "250m");
        }).anySatisfy(d -> {
            assertThat(d.field()).isEqualTo("image");
            assertThat(d.rule()).contains("paddlejobs.defaults.gpu-image");
        });
        assertThat(plan.derivations()).filteredOn(d -> d.field().equals("trainer_mem")).hasSize(1);
    }

    @Test
    void floorsScaleWithTheTrainersGpusAndLeaveLargerSharesAlone() {
        JobPlan plan = plan("num_gpus=4 trainer_gpu=2 memory=64Gi num_cpus=16");

        assertThat(plan.trainers().count()).isEqualTo(2);
        assertThat(plan.trainers().perReplica().memory()).isEqualTo(Memory.parse("32Gi"));
        assertThat(plan.trainers().perReplica().cpu()).isEqualTo(Cpu.cores(8));
        assertThat(plan.warnings()).isEmpty();
    }

    @Test
    void aRaisedShareOfAGivenTotalIsAWarning() {
        JobPlan plan = plan("num_gpus=2 memory=4Gi");

        assertThat(plan.trainers().perReplica().memory()).isEqualTo(Memory.parse("8Gi"));
        assertThat(plan.warnings()).anySatisfy(w -> assertThat(w).contains("more than memory / trainers"));
    }

    @Test
    void aGivenPerTrainerValueBelowTheFloorIsKeptWithAWarning() {
        JobPlan plan = plan("num_gpus=1 trainer_mem=2Gi");

        assertThat(plan.trainers().perReplica().memory()).isEqualTo(Memory.parse("2Gi"));
        assertThat(plan.warnings()).anySatisfy(w -> assertThat(w).contains("trainer_mem (2Gi) is below the per-GPU floor"));
    }

    @Test
    void cpuJobsAndNamedImagesAreUntouched() {
        assertThat(plan("num_cpus=4").image()).isEqualTo(PlannerFixtures.POLICY.defaults().image());
        assertThat(plan("num_cpus=4").trainers().perReplica().memory()).isEqualTo(Memory.parse("256Mi"));
        assertThat(plan("num_gpus=1 image=me/paddle:cuda").image()).isEqualTo("me/paddle:cuda");
    }
}

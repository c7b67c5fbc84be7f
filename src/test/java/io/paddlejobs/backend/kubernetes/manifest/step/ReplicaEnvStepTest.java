package io.paddlejobs.backend.kubernetes.manifest.step;

import io.paddlejobs.backend.kubernetes.KubeletEnv;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.PaddleEnv;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReplicaEnvStepTest {

    private static List<EnvVar> env(JobPlan plan, Role role) {
        return new ReplicaEnvStep(plan, role).apply(PodParts.empty()).main().getEnv();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void everyPserverPodSeesExactlyItsPlannedEnvironment(int index) {
        JobPlan plan = Plans.plan(Plans.gpuRequest("vision", 3));
        Replica replica = plan.replicasOf(Role.PSERVER).get(index);
        Map<String, String> seen = KubeletEnv.resolve(env(plan, Role.PSERVER),
                Map.of("metadata.annotations['batch.kubernetes.io/job-completion-index']", Integer.toString(index)));
        assertThat(seen.remove(ReplicaEnvStep.COMPLETION_INDEX)).isEqualTo(Integer.toString(index));
        assertThat(seen).isEqualTo(replica.env());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void everyTrainerPodSeesExactlyItsPlannedEnvironment(int index) {
        JobPlan plan = Plans.plan(Plans.gpuRequest("vision", 3));
        Replica replica = plan.replicasOf(Role.TRAINER).get(index);
        Map<String, String> seen = KubeletEnv.resolve(env(plan, Role.TRAINER),
                Map.of("metadata.annotations['batch.kubernetes.io/job-completion-index']", Integer.toString(index)));
        assertThat(seen).isEqualTo(replica.env());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void everyCollectiveTrainerPodSeesExactlyItsPlannedEnvironment(int index) {
        JobPlan plan = Plans.plan(Plans.collectiveRequest("allreduce", 2));
        Replica replica = plan.replicasOf(Role.TRAINER).get(index);
        Map<String, String> seen = KubeletEnv.resolve(env(plan, Role.TRAINER),
                Map.of("metadata.annotations['batch.kubernetes.io/job-completion-index']", Integer.toString(index)));
        assertThat(seen).isEqualTo(replica.env())
                .containsEntry(PaddleEnv.CURRENT_ENDPOINT, "allreduce-trainer-" + index + ".allreduce:7164")
                .containsEntry(PaddleEnv.POD_IP, "allreduce-trainer-" + index + ".allreduce")
                .containsEntry(PaddleEnv.RANK, Integer.toString(index))
                .containsEntry(PaddleEnv.MASTER_ADDR, "allreduce-trainer-0.allreduce")
                .doesNotContainKey("PADDLE_INIT_TRAINER_ID");
    }

    @Test
    void podIpOfAPserverIsBuiltFromItsCompletionIndex() {
        var podIp = env(Plans.plan("mnist", 2), Role.PSERVER).stream()
                .filter(v -> v.getName().equals(PaddleEnv.POD_IP)).findFirst().orElseThrow();
        assertThat(podIp.getValue()).isEqualTo("mnist-pserver-$(JOB_COMPLETION_INDEX).mnist");
    }

    @Test
    void trainerIdsComeFromTheCompletionIndexBeforeAnythingRefersToThem() {
        List<EnvVar> env = env(Plans.plan("mnist", 2), Role.TRAINER);
        assertThat(env.subList(0, 2)).extracting(EnvVar::getName)
                .containsExactly(PaddleEnv.TRAINER_ID, "PADDLE_INIT_TRAINER_ID");
        assertThat(env.get(0).getValueFrom().getFieldRef().getFieldPath())
                .isEqualTo("metadata.annotations['batch.kubernetes.io/job-completion-index']");
        assertThat(env).filteredOn(v -> v.getName().equals(PaddleEnv.POD_IP)).singleElement()
                .extracting(EnvVar::getValue).isEqualTo("mnist-trainer-$(PADDLE_TRAINER_ID).mnist");
    }

    @Test
    void userValuesReachTheProcessUnexpanded() {
        JobPlan plan = Plans.plan(Plans.gpuRequest("vision", 1));
        var value = env(plan, Role.TRAINER).stream().filter(v -> v.getName().equals("USER_SETTING"))
                .findFirst().orElseThrow().getValue();
        assertThat(KubeletEnv.expand(value, Map.of("HOME", "/root"))).isEqualTo("costs $$5 or $(HOME)");
    }
}

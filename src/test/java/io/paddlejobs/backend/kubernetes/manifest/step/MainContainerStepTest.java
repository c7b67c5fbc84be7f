package io.paddlejobs.backend.kubernetes.manifest.step;

import io.paddlejobs.backend.kubernetes.KubeletEnv;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.paddlejobs.planning.Role;
import org.junit.jupiter.api.Test;

class MainContainerStepTest {

    @Test
    void trainerExecsASingleCommandEntryPointInThePlannedImage() {
        var plan = Plans.plan("mnist", 1);
        var main = new MainContainerStep(plan, Role.TRAINER).apply(PodParts.empty()).main();
        assertThat(main.getName()).isEqualTo("paddle");
        assertThat(main.getImage()).isEqualTo("paddlepaddle/paddle:2.6.1");
        assertThat(main.getCommand()).containsExactly("sh", "-c",
                "mkdir -p \"$$PADDLE_JOB_CHECKPOINT_DIR\" 2>/dev/null\nexec python train.py");
        assertThat(main.getPorts()).isEmpty();
    }

    @Test
    void pserverRunsThePserverEntryPointWithDollarsEscapedFromKubernetesExpansion() {
        var plan = Plans.plan(Plans.gpuRequest("vision", 2));
        var main = new MainContainerStep(plan, Role.PSERVER).apply(PodParts.empty()).main();
        assertThat(main.getImage()).isEqualTo("example/paddle:gpu");
        assertThat(main.getCommand()).containsExactly("sh", "-c",
                "mkdir -p \"$$PADDLE_JOB_CHECKPOINT_DIR\" 2>/dev/null\nexec paddle pserver --port=$$PADDLE_PORT");
        assertThat(KubeletEnv.expand(main.getCommand().get(2), java.util.Map.of("PADDLE_PORT", "1")))
                .endsWith("\nexec paddle pserver --port=$PADDLE_PORT");
    }

    @Test
    void pserverExposesEveryPortFromFirstToLast() {
        var plan = Plans.plan("mnist", 1);
        var main = new MainContainerStep(plan, Role.PSERVER).apply(PodParts.empty()).main();
        assertThat(main.getPorts()).extracting(ContainerPort::getContainerPort).containsExactly(7164, 7165);
        assertThat(main.getPorts()).extracting(ContainerPort::getName).containsExactly("port-7164", "port-7165");
    }

    /**
     * A job that names PADDLE_JOB_TENSORBOARD_DIR: its trainers' container runs the entry point under the reader of
     * event files (docs/metrics.md), which becomes the container's first process and passes its stop signal on;
     * kwok runs no process, so the command is what is checked here, and the reader itself in TensorBoardScalarsTest.
     */
    @Test
    void aTrainerOfAJobThatNamesItsTensorBoardDirectoryRunsItsEntryPointUnderTheReader() {
        var plan = Plans.plan(io.paddlejobs.planning.JobRequests.named("charted", "python train.py").numCpus(1)
                .env(java.util.Map.of("PADDLE_JOB_TENSORBOARD_DIR", "runs")).build());

        String trainer = new MainContainerStep(plan, Role.TRAINER).apply(PodParts.empty()).main().getCommand().get(2);
        String pserver = new MainContainerStep(plan, Role.PSERVER).apply(PodParts.empty()).main().getCommand().get(2);

        assertThat(KubeletEnv.expand(trainer, java.util.Map.of())).isEqualTo("mkdir -p \"$PADDLE_JOB_CHECKPOINT_DIR\" "
                + "2>/dev/null\n" + io.paddlejobs.backend.TensorBoardScalars.command(plan, Role.TRAINER));
        assertThat(trainer).contains("exec \"$$python\" -I -c '", "PADDLEJOBS_METRICS");
        assertThat(pserver).endsWith("\nexec python train.py");
    }
}

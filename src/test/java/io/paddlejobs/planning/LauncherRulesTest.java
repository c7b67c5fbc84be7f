package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** docs/environment.md, "The launcher": what an entry point may ask of paddle.distributed.launch. */
class LauncherRulesTest {

    private static JobRequest request(String spec, String entryPoint) {
        return JobRequests.spec(spec).entryPoint(entryPoint).build();
    }

    private static JobPlan plan(String spec, String entryPoint) {
        return PlannerFixtures.plan(request(spec, entryPoint));
    }

    private static InvalidJobRequestException rejection(String spec, String entryPoint) {
        InvalidJobRequestException e = catchThrowableOfType(InvalidJobRequestException.class,
                () -> plan(spec, entryPoint));
        assertThat(e).as("'%s' with '%s' is refused", spec, entryPoint).isNotNull();
        return e;
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            mode=collective trainers=2            | python -m paddle.distributed.launch train.py
            mode=collective trainers=2            | python -m paddle.distributed.launch run_check
            mode=collective trainers=2            | /venv/bin/python -u -m paddle.distributed.launch --nnodes 2 --log_dir log train.py --nnodes 7
            mode=collective trainers=2            | python -m paddle.distributed.launch --nnodes=$NNODES --master $MASTER_ADDR:$MASTER_PORT train.py
            mode=collective trainers=2            | python -m paddle.distributed.launch --nproc_per_node 2 train.py
            mode=collective num_gpus=4 trainers=2 | python -m paddle.distributed.launch --nproc_per_node 2 --gpus 0,1 train.py
            mode=collective trainers=2            | echo --nnodes 5; python -m paddle.distributed.launch train.py
            mode=collective trainers=2            | python train.py --nnodes 3
            """)
    void launcherCommandsThatAgreeWithThePlanArePlanned(String spec, String entryPoint) {
        assertThat(plan(spec, entryPoint).warnings()).noneMatch(w -> w.contains("contradicts"));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            mode=collective trainers=2            | python -m paddle.distributed.launch --nnodes 3 train.py         | --nnodes 3
            mode=collective trainers=2            | fleetrun --nnodes=1 train.py                                    | --nnodes 1
            mode=collective trainers=2            | cd src && python3 -m paddle.distributed.launch --nnodes 2:4 t.py | --nnodes 2:4
            mode=collective num_gpus=4 trainers=2 | python -m paddle.distributed.launch --nproc_per_node 4 train.py | --nproc_per_node 4
            mode=collective num_gpus=4 trainers=2 | python -m paddle.distributed.launch --gpus 0,1,2,3 train.py    | --gpus 0,1,2,3
            mode=collective trainers=2            | python -m paddle.distributed.launch --devices 0 train.py        | --devices 0
            mode=collective trainers=2            | python -m paddle.distributed.launch --server_num 2 train.py     | --server_num
            mode=collective trainers=2            | python -m paddle.distributed.launch --run_mode ps train.py      | --run_mode ps
            """)
    void aLauncherFlagThatContradictsThePlanIsRefusedNamingTheFlagAndTheRule(String spec, String entryPoint,
                                                                             String flag) {
        InvalidJobRequestException e = rejection(spec, entryPoint);

        assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.fields()).containsExactly("entry_point");
            assertThat(v.message()).contains("paddle.distributed.launch " + flag, "contradicts the plan");
        });
    }

    @Test
    void theNnodesRuleSaysHowManyTrainersThereAre() {
        assertThat(rejection("mode=collective trainers=2", "python -m paddle.distributed.launch --nnodes 3 t.py")
                .violations().get(0).message()).contains("2 trainers", "make it 2");
    }

    @Test
    void aPsJobThatStartsTheLauncherIsRefusedWithTheFix() {
        InvalidJobRequestException e = rejection("num_cpus=2", "python -m paddle.distributed.launch train_ps.py");

        assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.fields()).containsExactly("entry_point");
            assertThat(v.message()).contains("ps job", "pservers would never start", "Drop the launcher",
                    "fleet.init() reads the environment");
        });
    }

    @Test
    void aPsJobWithoutTheLauncherIsNotWarned() {
        assertThat(plan("num_cpus=2", "python train_ps.py").warnings()).isEmpty();
    }

    @Test
    void aLiteralMasterIsAWarningThatTheEnvironmentWins() {
        assertThat(plan("mode=collective trainers=2", "python -m paddle.distributed.launch --master 10.0.0.9:8090 t.py")
                .warnings()).singleElement().asString().contains("--master 10.0.0.9:8090", "PADDLE_MASTER");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '!', quoteCharacter = '`', textBlock = """
            a 'b c' "d;e" f\\ g ! a,b c,d;e,f g
            x;y&&z|w & v       ! x,;,y,&&,z,|,w,&,v
            """)
    void entryPointsAreSplitIntoWordsAsAShellSplitsThem(String text, String words) {
        assertThat(LauncherCommand.words(text)).containsExactly(words.split(","));
    }
}

package io.paddlejobs.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import io.paddlejobs.testing.Settings;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader a trainer runs under when its job names PADDLE_JOB_TENSORBOARD_DIR (docs/metrics.md), as the
 * backends run it ({@code sh -c}), with python3, on event files written by the real writers (tensorboardX
 * 2.6.5 and VisualDL 2.5.3: {@code tensorboard/make_fixtures.py} beside them says how they were made).
 */
public class TensorBoardScalarsTest {

    /** What tensorboardx/ holds, in the reports the service charts: its text and histogram are no scalars. */
    private static final List<String> TENSORBOARD_REPORTS = List.of(
            "PADDLEJOBS_METRICS {\"step\": 0, \"loss\": 2.5, \"lr\": 0.1, \"acc\": 0.0, \"precise\": 0.3333333333333333, \"count\": 0}",
            "PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 1.25, \"lr\": 0.05, \"acc\": 0.25, \"precise\": 1.3333333333333333, \"count\": 10}",
            "PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.5, \"lr\": 0.033333335, \"acc\": 0.5, \"precise\": 2.3333333333333335, \"count\": 20}",
            "PADDLEJOBS_METRICS {\"step\": 3, \"loss\": 0.35, \"lr\": 0.025, \"acc\": 0.75, \"precise\": 3.3333333333333335, \"count\": 30}",
            "PADDLEJOBS_METRICS {\"step\": 2, \"pair.a.pair\": 1.5}",
            "PADDLEJOBS_METRICS {\"step\": 2, \"pair.b.pair\": -2.0}");
    private static final List<String> VISUALDL_REPORTS = List.of(
            "PADDLEJOBS_METRICS {\"step\": 0, \"vdl.train.loss\": 2.5}",
            "PADDLEJOBS_METRICS {\"step\": 1, \"vdl.train.loss\": 1.25}",
            "PADDLEJOBS_METRICS {\"step\": 2, \"vdl.train.loss\": 0.5}",
            "PADDLEJOBS_METRICS {\"step\": 3, \"vdl.train.loss\": 0.35}",
            "PADDLEJOBS_METRICS {\"step\": 2, \"vdl.pair.a\": 1.5, \"vdl.pair.b\": -2.0}");

    /** PADDLE_JOB_TENSORBOARD_DIR. */
    @TempDir
    Path dir;

    /** Where the test keeps what is not the reader's. */
    @TempDir
    Path scratch;

    /** The fixtures' directory. */
    public static Path fixtures() throws URISyntaxException {
        return Path.of(Objects.requireNonNull(TensorBoardScalarsTest.class.getResource("tensorboard")).toURI());
    }

    @Test
    void everyScalarOfTensorBoardAndVisualDlFilesBecomesAReportAtItsStepAndTheProgramsCodeIsKept() throws Exception {
        Path fixtures = fixtures();
        Run run = run("cp -r " + fixtures.resolve("tensorboardx") + "/. \"$PADDLE_JOB_TENSORBOARD_DIR\"; "
                + "mkdir \"$PADDLE_JOB_TENSORBOARD_DIR/vdl\"; cp " + fixtures.resolve("visualdl/vdlrecords.fixture.log")
                + " \"$PADDLE_JOB_TENSORBOARD_DIR/vdl/\"; echo program-ends; exit 3");

        assertThat(run.code()).as(run.errors()).isEqualTo(3);
        assertThat(run.lines()).as(run.errors()).containsExactlyElementsOf(concat(List.of("program-ends"),
                TENSORBOARD_REPORTS, VISUALDL_REPORTS));
    }

    @Test
    void filesThereBeforeTheStartAreNotReportedAgainAndARecordWrittenInPiecesIsReportedOnceWhole() throws Exception {
        Path fixtures = fixtures();
        Files.createDirectories(dir.resolve("earlier"));
        Files.copy(fixtures.resolve("visualdl/vdlrecords.fixture.log"), dir.resolve("earlier/vdlrecords.earlier.log"));
        Path events = fixtures.resolve("tensorboardx/events.out.tfevents.fixture");
        long half = Files.size(events) / 2 + 3; // in the middle of a record
        // The program appends the first half, lets the reader look (it looks every second), then the rest.
        Run run = run("head -c " + half + " " + events + " > \"$PADDLE_JOB_TENSORBOARD_DIR/events.out.tfevents.1\"; "
                + "sleep 1.5; tail -c +" + (half + 1) + " " + events + " >> \"$PADDLE_JOB_TENSORBOARD_DIR/events.out.tfevents.1\"");

        assertThat(run.code()).as(run.errors()).isZero();
        assertThat(run.lines()).as(run.errors()).containsExactlyElementsOf(TENSORBOARD_REPORTS.subList(0, 4));
    }

    @Test
    void aFileWhoseFramingIsBrokenIsReadNoFurtherAndTheOthersStillAre() throws Exception {
        Path fixtures = fixtures();
        byte[] broken = Files.readAllBytes(fixtures.resolve("tensorboardx/events.out.tfevents.fixture"));
        broken[8] ^= 0x55; // the first record's length checksum
        Path brokenFile = Files.write(scratch.resolve("broken"), broken);
        Run run = run("cp " + brokenFile + " \"$PADDLE_JOB_TENSORBOARD_DIR/events.out.tfevents.broken\"; "
                + "mkdir \"$PADDLE_JOB_TENSORBOARD_DIR/vdl\"; cp " + fixtures.resolve("visualdl/vdlrecords.fixture.log")
                + " \"$PADDLE_JOB_TENSORBOARD_DIR/vdl/\"");

        assertThat(run.code()).as(run.errors()).isZero();
        assertThat(run.lines()).as(run.errors()).containsExactlyElementsOf(VISUALDL_REPORTS);
    }

    @Test
    void onlyTrainersOfAJobThatNamesTheDirectoryRunUnderTheReaderWithTheEntryPointsOwnPythonFirst() {
        JobPlan named = plan(Map.of("PADDLE_JOB_TENSORBOARD_DIR", "runs"));

        assertThat(TensorBoardScalars.command(named, Role.TRAINER))
                .startsWith("for python in '/venv/bin/python3.11' 'python3' 'python'; do\n")
                .contains("exec \"$python\" -I -c '", "'/venv/bin/python3.11 -u train.py'\ndone\n")
                .endsWith("exec sh -c '/venv/bin/python3.11 -u train.py'\n");
        assertThat(TensorBoardScalars.command(named, Role.PSERVER)).isEqualTo("/venv/bin/python3.11 -u train.py");
        assertThat(TensorBoardScalars.command(plan(Map.of()), Role.TRAINER)).isEqualTo("/venv/bin/python3.11 -u train.py");
        assertThat(TensorBoardScalars.command(plan(Map.of("PADDLE_JOB_TENSORBOARD_DIR", " ")), Role.TRAINER))
                .as("an empty value reads nothing").isEqualTo("/venv/bin/python3.11 -u train.py");
        assertThat(named.derivations()).anySatisfy(d -> assertThat(d.rule()).contains("TensorBoard", "docs/metrics.md"));
    }

    private static JobPlan plan(Map<String, String> env) {
        return new JobPlanner(Settings.planningPolicyWithoutGpuRules()).plan(
                JobRequests.named("tb", "/venv/bin/python3.11 -u train.py").pservers(1).env(env).build(), "default",
                new Site() {
                    @Override
                    public String host(String namespace, String job, Role role, int index) {
                        return role.label() + "-" + index;
                    }

                    @Override
                    public String dataPath(String namespace, String job) {
                        return "/data";
                    }
                });
    }

    /** What the reader and the program printed, line by line, and how it ended. */
    private record Run(int code, List<String> lines, String errors) {
    }

    private Run run(String entryPoint) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", TensorBoardScalars.underReader(entryPoint));
        builder.environment().put("PADDLE_JOB_TENSORBOARD_DIR", dir.toString());
        Path out = Files.createTempFile(scratch, "out", ".txt");
        Path err = Files.createTempFile(scratch, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the reader ends with its program").isTrue();
        return new Run(process.exitValue(), Files.readAllLines(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @SafeVarargs
    private static List<String> concat(List<String>... lists) {
        return java.util.Arrays.stream(lists).flatMap(List::stream).toList();
    }
}

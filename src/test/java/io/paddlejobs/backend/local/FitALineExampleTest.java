package io.paddlejobs.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's example job, end to end: 2 pservers and 3 trainers wired by the injected environment. */
class FitALineExampleTest {

    private static final Path TRAIN_PY = Path.of("examples/fit-a-line/train.py").toAbsolutePath();
    private static final Pattern LOSS = Pattern.compile("pass (\\d+) loss ([0-9.eE+-]+)");

    @TempDir
    Path dataRoot;

    @Test
    void exampleJobSucceedsAndItsLossFalls() throws Exception {
        assertThat(TRAIN_PY).exists();
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            local.submit("fit-a-line", "python3 -u " + TRAIN_PY, 2, 3);

            Job job = local.awaitPhase("fit-a-line", JobPhase.SUCCEEDED);

            assertThat(job.status().trainers().succeeded()).isEqualTo(3);
            for (int trainer = 0; trainer < 3; trainer++) {
                List<Double> losses = losses(local.log("fit-a-line", Role.TRAINER, trainer));
                assertThat(losses).as("trainer %d reports a loss per pass", trainer).hasSizeGreaterThan(2);
                assertThat(losses.get(losses.size() - 1)).as("trainer %d's loss falls", trainer)
                        .isLessThan(losses.get(0) / 2);
            }
            assertThat(Files.readString(local.store().logFile(job.key(), "pserver-1"))).isNotBlank();
        }
    }

    @Test
    void exampleJobWithATrainerKilledMidTrainingResumesAfterItsLastCheckpointedPass() throws Exception {
        try (var local = new LocalBackendFixture(dataRoot,
                new io.paddlejobs.planning.RestartBackoff(java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(1)))) {
            local.backend.submit(local.plan(io.paddlejobs.planning.JobRequests.named("fit-a-line", "python3 -u " + TRAIN_PY)
                    .spec("max_restarts=1 restart_on=infrastructure").pservers(2).trainers(2)
                    .env(java.util.Map.of("FIT_A_LINE_PASS_SECONDS", "0.3")).build()));
            org.awaitility.Awaitility.await().atMost(LocalBackendFixture.DEADLINE)
                    .until(() -> local.log("fit-a-line", Role.TRAINER, 0).contains("pass 3 loss"));

            new ProcessBuilder("kill", "-9", Long.toString(local.pidOf("fit-a-line", "trainer-0"))).start().waitFor();
            Job job = local.awaitPhase("fit-a-line", JobPhase.SUCCEEDED);

            assertThat(job.status().restarts()).isEqualTo(1);
            Matcher resumed = Pattern.compile("trainer 0 resumes after pass (\\d+) \\(restart 1\\)")
                    .matcher(local.log("fit-a-line", Role.TRAINER, 0));
            assertThat(resumed.find()).as(local.log("fit-a-line", Role.TRAINER, 0)).isTrue();
            assertThat(Integer.parseInt(resumed.group(1))).isGreaterThanOrEqualTo(3);
        }
    }

    private static List<Double> losses(String log) {
        Matcher m = LOSS.matcher(log);
        List<Double> losses = new java.util.ArrayList<>();
        while (m.find()) {
            losses.add(Double.parseDouble(m.group(2)));
        }
        return losses;
    }
}

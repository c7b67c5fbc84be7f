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

/** The README's example, end to end: 2 pservers and 3 trainers wired by the injected environment. */
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

    private static List<Double> losses(String log) {
        Matcher m = LOSS.matcher(log);
        List<Double> losses = new java.util.ArrayList<>();
        while (m.find()) {
            losses.add(Double.parseDouble(m.group(2)));
        }
        return losses;
    }
}

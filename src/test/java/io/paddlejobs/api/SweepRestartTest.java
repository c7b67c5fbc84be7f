package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.ServiceProcess;
import io.paddlejobs.testing.SyntheticTrials;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A service killed (SIGKILL) while it drives a sweep, started again on its data root: the sweep is taken over
 * where it was once the dead replica's lease lapsed, and no trial starts twice. Trials are the synthetic
 * trainer ({@link SyntheticTrials}), each writing a mark when it starts.
 * Two service start-ups: tagged as KillDuringSubmitStormTest is, a kill amid work.
 */
@Tag("stress")
class SweepRestartTest {

    private static final Duration DEADLINE = Duration.ofSeconds(120);
    /** A short lease, so that the restarted service takes the sweep over soon after the kill. */
    private static final String[] QUICK_TAKEOVER = {"--paddlejobs.sweeps.look-every=200ms", "--paddlejobs.sweeps.lease=2s"};

    @TempDir
    Path dir;

    @Test
    void aSweepWhoseServiceWasKilledGoesOnAfterARestartAndStartsNoTrialTwice() throws Exception {
        Path root = dir.resolve("data");
        Path marks = Files.createDirectories(dir.resolve("marks"));
        SyntheticTrials trials = SyntheticTrials.in(dir.resolve("synthetic"));
        String sweep = """
                {"name": "resume", "parallel": 1, "objective": {"metric": "loss"},
                 "template": {"mode": "collective", "entry_point": "%s", "num_cpus": 1,
                              "env": {"STEPS": "3", "HOLD_AT": "1", "RELEASE_DIR": "%s", "MARK_DIR": "%s"}},
                 "parameters": [{"name": "quality", "env": "QUALITY", "values": [0.3, 0.2, 0.1]}]}"""
                .formatted(trials.entryPoint(), trials.releaseDir(), marks);

        ServiceProcess first = ServiceProcess.start(root, QUICK_TAKEOVER);
        try {
            ServiceClient service = new ServiceClient(first.port());
            HttpResponse<String> created = service.post("/sweeps", sweep);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            // the first trial runs, held before its second step, when the service is killed
            await().atMost(DEADLINE).until(() -> started(marks).contains("resume-t1 0"));
        } finally {
            first.kill();
        }
        Stream.of("resume-t1", "resume-t2", "resume-t3").forEach(trials::release);

        try (ServiceProcess second = ServiceProcess.start(root, QUICK_TAKEOVER)) {
            ServiceClient service = new ServiceClient(second.port());
            JsonNode ended = await().atMost(DEADLINE).until(() -> service.getJson("/sweeps/resume"),
                    s -> s.has("finished_at"));

            assertThat(ended.path("phase").asString()).as(ended.toString()).isEqualTo("Succeeded");
            List<String> phases = new ArrayList<>();
            ended.path("trials").forEach(trial -> phases.add(trial.path("name").asString() + " " + trial.path("phase").asString()));
            // the local backend ends the trial whose processes the kill stopped; the sweep goes on with the next
            assertThat(phases).containsExactly("resume-t1 Failed", "resume-t2 Succeeded", "resume-t3 Succeeded");
            assertThat(ended.path("best").path("name").asString()).isEqualTo("resume-t3");
            assertThat(started(marks)).containsExactly("resume-t1 0", "resume-t2 0", "resume-t3 0");
        }
    }

    private static List<String> started(Path marks) throws Exception {
        Path file = marks.resolve("started");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }
}

package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.backend.TensorBoardScalarsTest;
import io.paddlejobs.testing.FailingRank;
import io.paddlejobs.testing.HungRanks;
import io.paddlejobs.testing.PySpyInstalled;
import io.paddlejobs.testing.ServiceClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Collective jobs on the real Slurm cluster. Their trainers meet at trainer 0's master port
 * (docs/operations/slurm.md): the others start once it listens (launch.sh), a trainer 0 that never does fails
 * the job in words, and one that ends without listening lets the others run; trainer 0 meeting a real Paddle
 * rank is {@link SlurmLauncherTest}'s and {@link SlurmPaddleJobsTest}'s. And a trainer's TensorBoard
 * scalars are charted here as on the other backends (docs/metrics.md).
 */
class SlurmCollectiveJobsTest extends SlurmServiceTest {

    private static final Duration RENDEZVOUS_TIMEOUT = Duration.ofSeconds(5);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
        registry.add("paddlejobs.slurm.time-limit", () -> "5m");
        registry.add("paddlejobs.rendezvous-listen-timeout", () -> RENDEZVOUS_TIMEOUT.toSeconds() + "s");
        registry.add("paddlejobs.slurm.py-spy", PySpyInstalled::setting);
    }

    /**
     * docs/failures-and-hangs.md on Slurm, with real py-spy run through srun --overlap on the trainers' nodes: the
     * two ranks of {@link HungRanks} each wait in a function of their own, and the stacks taken at the stall and
     * on request name them. The stall timeout leaves a loaded machine time to start both before the stall is seen.
     */
    @Test
    void aHungJobsStacksAreTakenAtItsStallAndOnRequestNamingWhereEachRankWaits() {
        PySpyInstalled.orSkip();
        api.submit(JSON.writeValueAsString(Map.of("name", "hung", "mode", "collective", "trainers", 2, "memory", "256Mi",
                "stall_timeout", "5s", "entry_point", HungRanks.entryPoint())));

        await().atMost(Duration.ofSeconds(90)).until(() -> dumps("hung").size() == 1);
        JsonNode atStall = dumps("hung").get(0);
        assertThat(atStall.path("trigger").asString()).isEqualTo("stall");
        assertThat(atStall.path("attempt").asInt()).isZero();
        assertWaitsWhereItShould(atStall);

        HttpResponse<String> taken = api.post("/jobs/hung/stacks", "");

        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(200);
        JsonNode requested = ServiceClient.parse(taken.body());
        assertThat(requested.path("trigger").asString()).isEqualTo("requested");
        assertWaitsWhereItShould(requested);
        assertThat(dumps("hung")).as("kept, newest first").extracting(dump -> dump.path("trigger").asString())
                .containsExactly("requested", "stall");
        api.send("POST", "/jobs/hung/cancel", null);
        assertThat(api.post("/jobs/hung/stacks", "").statusCode()).as("none of a job that ended").isEqualTo(409);
    }

    private List<JsonNode> dumps(String job) {
        List<JsonNode> dumps = new ArrayList<>();
        api.getJson("/jobs/" + job + "/stacks").path("dumps").forEach(dumps::add);
        return dumps;
    }

    /** Each rank's main thread names the function it waits in, and the two differ where they wait. */
    private static void assertWaitsWhereItShould(JsonNode dump) {
        Map<String, List<String>> functions = new TreeMap<>();
        for (JsonNode replica : dump.path("replicas")) {
            JsonNode python = replica.path("processes").path(0);
            assertThat(python.isMissingNode()).as("%s", replica).isFalse();
            List<String> main = new ArrayList<>();
            python.path("threads").forEach(thread -> {
                if ("MainThread".equals(thread.path("name").asString())) {
                    thread.path("frames").forEach(frame -> main.add(frame.path("function").asString()));
                }
            });
            functions.put(replica.path("replica").asString(), main);
        }
        assertThat(functions).as("dump: %s", dump).containsOnlyKeys("trainer-0", "trainer-1");
        assertThat(functions.get("trainer-0")).contains("wait_for_peer").doesNotContain("accept_from_peer");
        assertThat(functions.get("trainer-1")).contains("accept_from_peer").doesNotContain("wait_for_peer");
    }

    /**
     * debug_hold on Slurm (docs/failures-and-hangs.md): in {@link FailingRank}, trainer 1 writes a file and exits 3
     * while trainer 0 listens and runs on. The attempt is held with trainer 0 still running, a command runs in trainer 1's directory and
     * environment through srun --overlap, its output and exit code streamed back, and a cancel ends the hold.
     */
    @Test
    void aFailedTrainerIsHeldWithItsSiblingAndExecRunsInItAsItRanUntilACancelEndsTheHold() {
        api.submit(JSON.writeValueAsString(Map.of("name", "held", "mode", "collective", "trainers", 2, "memory", "256Mi",
                "debug_hold", "10m", "entry_point", FailingRank.entryPoint())));

        await().atMost(SlurmJobsApiTest.RUN).until(() -> "Held".equals(api.status("held").path("reason").asString()));
        JsonNode held = api.status("held");
        assertThat(held.get("phase").asString()).isEqualTo("Running");
        assertThat(held.get("message").asString()).contains("trainer-1 exited with code 3", "held until",
                "paddle-jobs exec held --role trainer --index 1 -- sh", "then the job fails");
        assertThat(held.at("/replicas/0/state").asString()).as("%s", held).isEqualTo("Running");

        HttpResponse<String> answer = api.post("/jobs/held/exec?role=trainer&index=1",
                "{\"command\": [\"sh\", \"-c\", \"pwd; cat note.txt; echo rank-$PADDLE_TRAINER_ID; exit 5\"]}");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        List<JsonNode> lines = answer.body().lines().map(ServiceClient::parse).toList();
        String output = lines.subList(0, lines.size() - 1).stream().map(line -> line.get("output").asString())
                .reduce("", String::concat);
        assertThat(output).as(answer.body()).contains("/held/work/trainer-1\nwritten-by-1\nrank-1\n");
        assertThat(lines.get(lines.size() - 1).get("exit_code").asInt()).as(answer.body()).isEqualTo(5);

        api.post("/jobs/held/cancel", "");
        assertThat(api.awaitPhase("held", "Cancelled", SlurmJobsApiTest.RUN).get("reason").asString()).isEqualTo("Cancelled");
        assertThat(api.post("/jobs/held/exec", "{\"command\": [\"true\"]}").statusCode()).as("not held now")
                .isEqualTo(409);
    }

    /**
     * A hold whose time runs out ends the attempt as its failure would have (here: the job fails), and it is the
     * service that ends it, with the mark the held launcher waits for (the launcher's own end is minutes later).
     */
    @Test
    void aHoldThatRunsOutIsEndedByTheServiceAndTheJobFailsAsItWouldHave() {
        api.submit(JSON.writeValueAsString(Map.of("name", "held-briefly", "mode", "collective", "trainers", 2,
                "memory", "256Mi", "debug_hold", "2s", "entry_point", FailingRank.entryPoint())));

        JsonNode failed = api.awaitPhase("held-briefly", "Failed", SlurmJobsApiTest.RUN);

        assertThat(failed.get("reason").asString()).as("%s", failed).isEqualTo("TrainerFailed");
        assertThat(failed.get("message").asString()).contains("trainer-1 exited with code 3");
        assertThat(sharedDir.resolve("jobs/default/held-briefly/state/hold-over")).as("ended by the service")
                .isRegularFile();
    }

    @Test
    void aTrainerZeroThatNeverListensFailsTheJobInWordsAndTheOtherNeverStarts() {
        api.submit(collective("lonely", "if [ \\\"$RANK\\\" = 0 ]; then exec sleep 3505; fi; echo started-anyway"));

        JsonNode status = api.awaitPhase("lonely", "Failed", SlurmJobsApiTest.RUN);

        assertThat(status.get("reason").asString()).isEqualTo("RendezvousNotListening");
        assertThat(status.get("message").asString()).contains("trainer-0 did not accept connections on its master port",
                "(PADDLE_MASTER) within 5s (paddlejobs.rendezvous-listen-timeout)", "role=trainer&index=0");
        JsonNode held = status.at("/replicas/1");
        assertThat(held.get("state").asString()).as("%s", status).isEqualTo("Stopped");
        assertThat(held.path("started_at").isMissingNode() || held.path("started_at").isNull()).as("never started: %s",
                status).isTrue();
        assertThat(status.at("/replicas/0/state").asString()).isEqualTo("Stopped");
        assertThat(api.logs("lonely", "role=trainer&index=1")).doesNotContain("started-anyway")
                .contains("trainer-0 did not listen on");
    }

    /** Each trainer copies what tensorboardX wrote into a directory of its own, which the job names. */
    @Test
    void aTrainerZeroThatEndsWithoutListeningLetsTheOtherRunAndEachTrainersTensorBoardScalarsAreCharted()
            throws Exception {
        Path events = TensorBoardScalarsTest.fixtures().resolve("tensorboardx/events.out.tfevents.fixture");
        api.submit(collective("apart", "echo rank-$RANK; mkdir -p runs/$RANK && cp " + events + " runs/$RANK/",
                ", \"env\": {\"PADDLE_JOB_TENSORBOARD_DIR\": \"runs/$RANK\"}"));

        JsonNode status = api.awaitPhase("apart", "Succeeded", SlurmJobsApiTest.RUN);

        assertThat(status.at("/replicas/1/state").asString()).isEqualTo("Succeeded");
        assertThat(api.logs("apart", "role=trainer&index=1")).contains("rank-1");
        // 5 scalars at 4 steps from each of 2 trainers
        await().atMost(SlurmJobsApiTest.RUN).until(() -> api.getJson("/jobs/apart/metrics").at("/cursor").asLong() == 40);
        JsonNode loss = api.getJson("/jobs/apart/metrics").at("/metrics/loss");
        for (String trainer : List.of("trainer-0", "trainer-1")) {
            assertThat(loss.path(trainer).valueStream().map(point -> point.get("value").asDouble()).toList())
                    .as("%s: %s", trainer, loss).containsExactly(2.5, 1.25, 0.5, 0.35);
        }
    }

    private static String collective(String name, String entryPoint) {
        return collective(name, entryPoint, "");
    }

    private static String collective(String name, String entryPoint, String more) {
        return """
                {"name": "%s", "mode": "collective", "trainers": 2, "memory": "256Mi", "entry_point": "%s"%s}"""
                .formatted(name, entryPoint, more);
    }
}

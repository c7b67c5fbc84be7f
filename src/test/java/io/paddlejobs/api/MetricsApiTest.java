package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Metrics reported by real trainer processes on the local backend, read over real HTTP. */
class MetricsApiTest extends ApiTest {

    final JsonMapper json = JsonMapper.builder().build();

    @Test
    void everyTrainersReportsAreServedPerMetricAndReplica() {
        client.submit("""
                {"name": "reports", "trainers": 2, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "for s in 1 2 3; do echo pass $s; echo PADDLEJOBS_METRICS '{\\"step\\": '$s', \\"loss\\": '$PADDLE_TRAINER_ID.$s'}'; done; echo 'PADDLEJOBS_METRICS {oops}'"}
                """);
        awaitPhase("reports", "Succeeded");

        await().atMost(Duration.ofSeconds(10)).until(() -> metrics("reports", 0).at("/ignored_lines").asInt() == 2);
        JsonNode metrics = metrics("reports", 0);
        assertThat(metrics.at("/name").asString()).isEqualTo("reports");
        assertThat(metrics.at("/namespace").asString()).isEqualTo("default");
        assertThat(values(metrics.at("/metrics/loss/trainer-0"), "value")).containsExactly(0.1, 0.2, 0.3);
        assertThat(values(metrics.at("/metrics/loss/trainer-1"), "value")).containsExactly(1.1, 1.2, 1.3);
        assertThat(values(metrics.at("/metrics/loss/trainer-1"), "step")).containsExactly(1.0, 2.0, 3.0);
        assertThat(metrics.at("/metrics/loss/trainer-0/0/time").asString()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(metrics.at("/cursor").asLong()).isEqualTo(6);
    }

    @Test
    void fitALineExampleReportsEachTrainersFallingLoss() throws IOException {
        Path example = Path.of("examples/fit-a-line").toAbsolutePath();
        client.submit(Files.readString(example.resolve("job.json")).replace("@EXAMPLE_DIR@", example.toString()));
        awaitPhase("fit-a-line", "Succeeded");

        await().atMost(Duration.ofSeconds(60)).until(() -> metrics("fit-a-line", 0).at("/cursor").asLong() == 3 * 8);
        JsonNode loss = metrics("fit-a-line", 0).at("/metrics/loss");
        assertThat(loss.propertyNames()).containsExactly("trainer-0", "trainer-1", "trainer-2");
        for (JsonNode trainer : loss) {
            List<Double> values = values(trainer, "value");
            assertThat(values(trainer, "step")).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
            assertThat(values.get(7)).isLessThan(values.get(0) / 2);
        }
        JsonNode progress = client.status("fit-a-line").get("progress");
        assertThat(progress.get("step").asInt()).isEqualTo(8);
        assertThat(progress.get("total_steps").asInt()).isEqualTo(8);
        assertThat(progress.get("fraction").asDouble()).isEqualTo(1.0);
    }

    /**
     * A program that writes TensorBoard event files and prints no report: its job names their directory, and
     * each trainer's scalars are charted (here the trainers copy what tensorboardX wrote, into a directory each).
     */
    @Test
    void aTrainersTensorBoardScalarsAreChartedWhenItsJobNamesTheirDirectory() throws Exception {
        Path events = io.paddlejobs.backend.TensorBoardScalarsTest.fixtures()
                .resolve("tensorboardx/events.out.tfevents.fixture");
        client.submit("""
                {"name": "charted", "trainers": 2, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "mkdir -p runs/$PADDLE_TRAINER_ID && cp %s runs/$PADDLE_TRAINER_ID/",
                 "env": {"PADDLE_JOB_TENSORBOARD_DIR": "runs/$PADDLE_TRAINER_ID"}}
                """.formatted(events));
        awaitPhase("charted", "Succeeded");

        // 5 scalars at 4 steps from each of 2 trainers
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(metrics("charted", 0).at("/cursor")
                .asLong()).as("trainer-0's log:%n%s", client.logs("charted", "role=trainer&index=0")).isEqualTo(40));
        JsonNode metrics = metrics("charted", 0).at("/metrics");
        for (String trainer : List.of("trainer-0", "trainer-1")) {
            assertThat(values(metrics.at("/loss/" + trainer), "step")).containsExactly(0.0, 1.0, 2.0, 3.0);
            assertThat(values(metrics.at("/loss/" + trainer), "value")).containsExactly(2.5, 1.25, 0.5, 0.35);
            assertThat(values(metrics.at("/acc/" + trainer), "value")).containsExactly(0.0, 0.25, 0.5, 0.75);
        }
        assertThat(metrics("charted", 0).at("/ignored_lines").asInt()).isZero();
    }

    @Test
    void sinceGivesOnlyThePointsReportedAfterAnEarlierRead() throws IOException {
        Path release = DATA_ROOT.resolve("release-since");
        client.submit("""
                {"name": "grows", "trainers": 1, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "echo PADDLEJOBS_METRICS '{\\"step\\": 1, \\"loss\\": 0.9}'; while [ ! -e '%s' ]; do sleep 0.1; done; echo PADDLEJOBS_METRICS '{\\"step\\": 2, \\"loss\\": 0.4}'"}
                """.formatted(release));
        await().atMost(Duration.ofSeconds(30)).until(() -> metrics("grows", 0).at("/cursor").asLong() == 1);
        long cursor = metrics("grows", 0).at("/cursor").asLong();
        assertThat(metrics("grows", cursor).at("/metrics").isEmpty()).isTrue();
        assertThat(metrics("grows", cursor).at("/complete").asBoolean()).as("the job runs on").isFalse();

        Files.createFile(release);

        await().atMost(Duration.ofSeconds(30)).until(() -> !metrics("grows", cursor).at("/metrics").isEmpty());
        JsonNode later = metrics("grows", cursor);
        assertThat(values(later.at("/metrics/loss/trainer-0"), "step")).containsExactly(2.0);
        assertThat(later.at("/cursor").asLong()).isEqualTo(2);
    }

    @Test
    void deletedJobsMetricsAre404AndAResubmittedNameStartsAfresh() {
        client.submit(body("again", "echo PADDLEJOBS_METRICS '{\\\"step\\\": 5, \\\"loss\\\": 5}'"));
        awaitPhase("again", "Succeeded");
        await().atMost(Duration.ofSeconds(10)).until(() -> metrics("again", 0).at("/cursor").asLong() == 1);

        assertThat(client.delete("/jobs/again").statusCode()).isEqualTo(204);
        assertThat(client.get("/jobs/again/metrics").statusCode()).isEqualTo(404);

        client.submit(body("again", "echo PADDLEJOBS_METRICS '{\\\"step\\\": 1, \\\"acc\\\": 0.5}'"));
        awaitPhase("again", "Succeeded");
        await().atMost(Duration.ofSeconds(10)).until(() -> metrics("again", 0).at("/cursor").asLong() == 1);
        assertThat(metrics("again", 0).at("/metrics").propertyNames()).containsExactly("acc");
    }

    @Test
    void statusUrlStreamsStatusAndNewPointsAsEventsUntilTheJobHasEnded() {
        client.submit(body("pushed", "for s in 1 2 3; do echo PADDLEJOBS_METRICS '{\\\"step\\\": '$s', \\\"loss\\\": 0.'$s'}'; sleep 0.4; done"));

        var response = client.get(client.baseUrl() + "/jobs/pushed/status?namespace=default", "text/event-stream");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        List<String> events = response.body().lines().filter(line -> line.startsWith("event:")).toList();
        assertThat(events).first().isEqualTo("event:status");
        assertThat(events).last().isEqualTo("event:end");
        List<JsonNode> data = response.body().lines().filter(line -> line.startsWith("data:{"))
                .map(line -> json.readTree(line.substring("data:".length()))).toList();
        assertThat(data.stream().filter(d -> d.has("phase")).map(d -> d.get("phase").asString()).toList()).endsWith("Succeeded");
        List<Double> steps = data.stream().filter(d -> d.has("cursor"))
                .flatMap(d -> d.at("/metrics/loss/trainer-0").valueStream()).map(p -> p.get("step").asDouble()).toList();
        assertThat(steps).containsExactly(1.0, 2.0, 3.0);
    }

    /**
     * Trainers whose last report follows much other output, and who end at once: their job's end is seen while the
     * service still reads that output. The stream ended then, with a trainer's last points unsent, and the page
     * that opened it charted the trainer short of them (seen under load).
     */
    @Test
    void theStreamEndsAndTheMetricsAreCompleteOnlyOnceEveryReportedPointIsIn() {
        client.submit("""
                {"name": "last-words", "trainers": 2, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "seq 1 300 | sed 's/.*/PADDLEJOBS_METRICS {\\"step\\": &, \\"loss\\": &}/'; head -c 40000000 /dev/zero | tr '\\\\0' x | fold -w 4000; echo PADDLEJOBS_METRICS '{\\"step\\": 301, \\"loss\\": 0}'"}
                """);

        var response = client.get(client.baseUrl() + "/jobs/last-words/status?namespace=default", "text/event-stream");

        List<String> events = response.body().lines().filter(line -> line.startsWith("event:")).toList();
        assertThat(events).last().isEqualTo("event:end");
        List<JsonNode> reads = response.body().lines().filter(line -> line.startsWith("data:{"))
                .map(line -> json.readTree(line.substring("data:".length()))).filter(d -> d.has("cursor")).toList();
        for (String trainer : List.of("trainer-0", "trainer-1")) {
            assertThat(reads.stream().mapToLong(read -> read.at("/metrics/loss/" + trainer).size()).sum())
                    .as("points of %s pushed before the end", trainer).isEqualTo(301);
        }
        assertThat(reads).last().satisfies(read -> assertThat(read.get("complete").asBoolean()).isTrue());
        JsonNode read = metrics("last-words", 0);
        assertThat(read.at("/cursor").asLong()).isEqualTo(2 * 301);
        assertThat(read.at("/complete").asBoolean()).isTrue();
    }

    @Test
    void statusStreamOfAJobThatIsNotThereIsA404Problem() {
        var response = client.get(client.baseUrl() + "/jobs/not-here/status", "text/event-stream");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void theStatusTheListAndTheMetricsTellTheSlowestTrainersProgressAndTheTimeLeft() throws IOException {
        Path release = DATA_ROOT.resolve("release-progress");
        client.submit("""
                {"name": "progressing", "trainers": 1, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "for s in 1 2 3; do echo PADDLEJOBS_METRICS '{\\"step\\": '$s', \\"total_steps\\": 4}'; sleep 0.7; done; while [ ! -e '%s' ]; do sleep 0.1; done"}
                """.formatted(release));

        await().atMost(Duration.ofSeconds(60)).until(() -> client.status("progressing").at("/progress/step").asInt() == 3);
        JsonNode progress = client.status("progressing").get("progress");
        assertThat(progress.get("total_steps").asInt()).isEqualTo(4);
        assertThat(progress.get("fraction").asDouble()).isEqualTo(0.75);
        assertThat(progress.get("trainer").asString()).isEqualTo("trainer-0");
        assertThat(progress.get("steps_per_second").asDouble()).isPositive();
        assertThat(progress.get("eta_seconds").asLong()).isNotNegative();
        assertThat(metrics("progressing", 0).at("/progress/step").asInt()).isEqualTo(3);
        assertThat(client.getJson("/jobs").at("/items")).anySatisfy(item -> {
            assertThat(item.get("name").asString()).isEqualTo("progressing");
            assertThat(item.at("/progress/fraction").asDouble()).isEqualTo(0.75);
        });

        Files.createFile(release);
        awaitPhase("progressing", "Succeeded");

        JsonNode settled = client.status("progressing").get("progress");
        assertThat(settled.get("step").asInt()).isEqualTo(3);
        assertThat(settled.has("steps_per_second")).isFalse();
        assertThat(settled.has("eta_seconds")).isFalse();
    }

    private JsonNode metrics(String name, long since) {
        var response = client.get("/jobs/" + name + "/metrics?since=" + since);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json.readTree(response.body());
    }

    private static List<Double> values(JsonNode points, String field) {
        return points.valueStream().map(point -> point.get(field).asDouble()).toList();
    }

    private void awaitPhase(String name, String phase) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var response = client.get("/jobs/" + name + "/status");
            return response.statusCode() == 200 && json.readTree(response.body()).get("phase").asString().equals(phase);
        });
    }

    private static String body(String name, String entryPoint) {
        return """
                {"name": "%s", "entry_point": "%s", "pservers": 1, "trainers": 1, "pserver_entry_point": "sleep 60"}"""
                .formatted(name, entryPoint);
    }
}

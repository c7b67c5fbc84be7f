package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Jobs that attack the service through the files they can write on the shared directory, on the
 * real test cluster (the red-team report's H3, H4, M5 and L7): each test runs the attack as a job
 * and checks that it reads nothing outside the job, freezes nothing, leaves nothing running.
 */
@Tag("redteam") // Red team round 2, H3, H4, M5 and L7 on Slurm: planted links, frozen status, detached processes.
class SlurmHostileJobsTest extends SlurmServiceTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path MARKER = outsideFile();

    @TempDir
    static Path sharedDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
    }

    @AfterAll
    static void removeMarker() throws IOException {
        Files.deleteIfExists(MARKER);
    }

    @Test
    void linksPlantedInPlaceOfLogsReadNothingOutsideTheJobNorEndlesslyFromDevZero() throws Exception {
        submit("default", "snoop", 2, """
                if [ "$PADDLE_TRAINER_ID" = 0 ]; then
                  ln -sf %s ../../logs/trainer-0.log; ln -sf /dev/zero ../../logs/trainer-1.log; touch ../../planted
                fi; sleep 120""".formatted(MARKER), Map.of());
        await().atMost(SlurmJobsApiTest.RUN).until(() -> Files.exists(sharedDir.resolve("jobs/default/snoop/planted")));
        assertThat(api.send("GET", "/jobs/snoop/metrics", null).statusCode()).as("its trainers' logs are followed")
                .isEqualTo(200);

        long readBefore = bytesReadByThisJvm();
        assertThat(api.logs("snoop", "role=trainer&index=0")).doesNotContain("SECRET-MARKER").isEmpty();
        assertThat(firstBytes("/jobs/snoop/logs?role=trainer&index=1&tail=1")).as("a link to /dev/zero is no log").isEmpty();
        assertThat(firstBytes("/jobs/snoop/logs?role=trainer&index=1")).isEmpty();
        submit("other", "bystander", 1, "echo done", Map.of());
        api.awaitPhase("bystander", "other", "Succeeded", SlurmJobsApiTest.RUN);

        // A follower of the /dev/zero link would read as fast as it is scheduled (what burned a core):
        // gigabytes in the seconds above. This JVM's own reads meanwhile (logs, records, HTTP) are kilobytes.
        assertThat(bytesReadByThisJvm() - readBefore).as("bytes this JVM read meanwhile: a follower of /dev/zero reads nothing")
                .isLessThan(64L << 20);
        api.send("POST", "/jobs/snoop/cancel", null);
    }

    @Test
    void fifosDeviceLinksAndABadPlacementInStateFreezeNoOtherJobAndNoCancel() {
        submit("default", "freezer", 2, """
                if [ "$PADDLE_TRAINER_ID" = 0 ]; then
                  rm -f ../../state/trainer-0.started; mkfifo ../../state/trainer-0.started
                  ln -sf /dev/zero ../../state/trainer-1.exit; mkfifo ../../state/trainer-0.exit
                  printf 'trainer-0 127.0.0.1 notaport n1\\n' > ../../state/placement; touch ../../planted
                fi; sleep 120""", Map.of());
        await().atMost(SlurmJobsApiTest.RUN).until(() -> Files.exists(sharedDir.resolve("jobs/default/freezer/planted")));

        submit("other", "short", 1, "echo short-done", Map.of());

        api.awaitPhase("short", "other", "Succeeded", Duration.ofSeconds(60));
        // A cancel that blocked on the FIFO would never answer: it answers within a user's client's wait.
        HttpResponse<String> cancel = api.within(ServiceClient.USER_TIMEOUT).send("POST", "/jobs/freezer/cancel", null);
        assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(200);
        api.awaitPhase("freezer", "Cancelled", Duration.ofSeconds(30));
        submit("other", "after", 1, "echo after", Map.of());
        api.awaitPhase("after", "other", "Succeeded", Duration.ofSeconds(60));
    }

    @Test
    void whatAReplicaDetachesDiesWithItOnCancel() {
        String seconds = "99173";
        // As the report's: the subshell ends at once, so the sleeper's parent is gone and it descends from no replica.
        submit("default", "detacher", 1, "(setsid sleep " + seconds + " > /dev/null 2>&1 < /dev/null &); sleep 300", Map.of());
        api.awaitPhase("detacher", "Running", SlurmJobsApiTest.RUN);
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> !sleepers(seconds).isEmpty());

            assertThat(api.send("POST", "/jobs/detacher/cancel", null).statusCode()).isEqualTo(200);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sleepers(seconds))
                    .as("the setsid child of a cancelled replica").isEmpty());
        } finally {
            sleepers(seconds).forEach(ProcessHandle::destroyForcibly); // this test's own sleeper, if the check failed
        }
    }

    @Test
    void userValuesReachTheReplicaVerbatimTrailingNewlinesAndTokensIncluded() {
        String value = "keep @trainer-0@ and @trainer-0@:7164\n\n";
        submit("default", "verbatim", 1, "printf '[%s]' \"$NOTE\"", Map.of("NOTE", value));

        api.awaitPhase("verbatim", "Succeeded", SlurmJobsApiTest.RUN);

        assertThat(api.logs("verbatim", "role=trainer&index=0")).isEqualTo("[" + value + "]");
        assertThat(api.getJson("/jobs/verbatim").path("plan").path("replicas").get(0).path("env").path("NOTE").asString())
                .isEqualTo(value);
    }

    private void submit(String namespace, String name, int trainers, String entryPoint, Map<String, String> env) {
        ObjectNode request = JSON.createObjectNode().put("name", name).put("mode", "collective").put("trainers", trainers)
                .put("memory", "256Mi").put("entry_point", entryPoint);
        env.forEach(request.putObject("env")::put);
        HttpResponse<String> response = api.send("POST", "/jobs?namespace=" + namespace, JSON.writeValueAsString(request));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    /** At most 1 MiB of an answer's body: a log that never ends must not fill this JVM when the check fails. */
    private byte[] firstBytes(String path) throws IOException, InterruptedException {
        HttpResponse<java.io.InputStream> response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(api.baseUrl() + path))
                        .timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (java.io.InputStream body = response.body()) {
            assertThat(response.statusCode()).isEqualTo(200);
            return body.readNBytes(1 << 20);
        }
    }

    /** The processes running {@code sleep <seconds>}. */
    private static List<ProcessHandle> sleepers(String seconds) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(command -> command.endsWith("/sleep")).orElse(false)
                        && p.info().arguments().map(args -> Arrays.equals(args, new String[] {seconds})).orElse(false))
                .toList();
    }

    /** The CPU time of every Java thread of this JVM (the service's included), not the JIT's or the collector's. */
    /** What this JVM has read, from any file, pipe or socket: {@code rchar} of /proc/self/io. */
    private static long bytesReadByThisJvm() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/io")).stream().filter(line -> line.startsWith("rchar:"))
                .mapToLong(line -> Long.parseLong(line.substring("rchar:".length()).trim())).findFirst().orElseThrow();
    }

    private static Path outsideFile() {
        try {
            Path file = Files.createTempFile("outside-the-job", ".txt");
            return Files.writeString(file, "SECRET-MARKER\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

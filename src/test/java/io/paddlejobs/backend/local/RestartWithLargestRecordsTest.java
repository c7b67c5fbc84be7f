package io.paddlejobs.backend.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Role;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's crash loop: records of the largest jobs (64 + 64 replicas, as much env as a plan may
 * hold) used to hold the environment once per replica, and a restart with a few dozen of them ran
 * out of heap. Records now hold the request, so a service with a small heap starts and serves them.
 */
class RestartWithLargestRecordsTest {

    private static final int RECORDS = 100;
    private static final String HEAP = "-Xmx192m";

    @TempDir
    Path dataRoot;

    @Test
    void aServiceWithASmallHeapRestartsOverManyRecordsOfTheLargestJobs() throws Exception {
        var local = new LocalBackendFixture(dataRoot, 4);
        JobRecordStore store = local.store();
        String value = "v".repeat(4000);
        StringBuilder env = new StringBuilder();
        for (int i = 0; i < 7; i++) {
            env.append(i == 0 ? "" : ",").append("\"BIG_").append(i).append("\":\"").append(value).append('"');
        }
        for (int n = 0; n < RECORDS; n++) {
            JobRequest request = LocalBackendFixture.json().readValue(("{\"name\":\"amp-%d\",\"entry_point\":\"sleep 20\","
                    + "\"trainers\":64,\"pservers\":64,\"num_cpus\":64,\"env\":{%s}}").formatted(n, env), JobRequest.class);
            JobPlan plan = local.plan(request);
            store.save(new JobRecord(plan.spec(), plan.namespace(), 21000, finished(plan), Map.of()));
        }
        local.close();
        long largest = Files.size(dataRoot.resolve("jobs/default/amp-0/job.json"));
        assertThat(largest).as("a record holds the request once, not once per replica").isLessThan(150_000);

        Process service = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-cp", System.getProperty("java.class.path"), "io.paddlejobs.PaddleJobsApplication",
                "--server.port=0", "--paddlejobs.local.data-root=" + dataRoot, "--spring.main.banner-mode=off")
                .redirectErrorStream(true).start();
        AtomicReference<Integer> port = new AtomicReference<>();
        StringBuilder output = new StringBuilder();
        Thread reader = new Thread(() -> readPort(service, port, output));
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(120)).until(() -> port.get() != null || !service.isAlive());
            assertThat(service.isAlive()).as(output::toString).isTrue();
            HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port.get() + "/jobs?limit=500")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(list.statusCode()).isEqualTo(200);
            assertThat(Pattern.compile("\"name\":\"amp-").matcher(list.body()).results().count()).isEqualTo(RECORDS);
        } finally {
            service.destroy();
            service.waitFor();
        }
    }

    private static void readPort(Process service, AtomicReference<Integer> port, StringBuilder output) {
        Pattern started = Pattern.compile("Tomcat started on port (\\d+)");
        try (var in = new BufferedReader(new InputStreamReader(service.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (output) {
                    output.append(line).append('\n');
                }
                Matcher matcher = started.matcher(line);
                if (matcher.find()) {
                    port.set(Integer.parseInt(matcher.group(1)));
                }
            }
        } catch (java.io.IOException e) {
            // the service ended
        }
    }

    private static JobStatus finished(JobPlan plan) {
        Instant now = Instant.now();
        List<ReplicaStatus> replicas = plan.replicas().stream()
                .map(r -> new ReplicaStatus(r.id(), r.role(), r.index(), r.host(),
                        r.role() == Role.TRAINER ? ReplicaState.SUCCEEDED : ReplicaState.STOPPED, 0, 0, null, now, now))
                .toList();
        return new JobStatus(JobPhase.SUCCEEDED, "Completed", "every trainer exited 0", now, now, now, null,
                RoleCounts.of(64, replicas.stream().filter(r -> r.role() == Role.PSERVER).toList()),
                RoleCounts.of(64, replicas.stream().filter(r -> r.role() == Role.TRAINER).toList()), replicas);
    }
}

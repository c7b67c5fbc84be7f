package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.PostgresServer;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.ServiceProcess;
import io.paddlejobs.testing.SyntheticTrials;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.Lifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The service as a deployment runs it, with its history on PostgreSQL ({@code spring.datasource.*}):
 * migrated at start from an empty database, a job the backend forgot served from it, and a sweep driven by
 * two replicas of the service on that one database.
 */
@Tag("postgres")
@ExtendWith(PostgresServer.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PostgresHistoryApplicationTest {

    private static final Duration WITHIN = Duration.ofSeconds(120);

    @TempDir
    static Path dataRoot;

    @TempDir
    Path dir;

    @LocalServerPort
    int port;

    @Autowired
    JobBackend backend;

    @Autowired
    JobHistory history;

    @Autowired
    JdbcClient db;

    @Autowired
    ApplicationContext context;

    ServiceClient client;

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", dataRoot::toString);
        registry.add("spring.datasource.url", () -> PostgresServer.current().newDatabase());
        registry.add("spring.datasource.username", () -> PostgresServer.current().user());
        registry.add("spring.datasource.password", () -> PostgresServer.current().password());
        registry.add("paddlejobs.sweeps.look-every", () -> "200ms");
    }

    @BeforeEach
    void realPortClient() {
        client = new ServiceClient(port);
    }

    @Test
    void aFinishedJobTheBackendForgotIsServedFromPostgresMarkedArchived() {
        assertThat(db.sql("select version()").query(String.class).single()).startsWith("PostgreSQL");
        client.submit(LocalJobsApiTest.body("kept-in-postgres", "echo first; echo second"));
        client.awaitPhase("kept-in-postgres", "Succeeded", WITHIN);
        JobKey key = new JobKey("default", "kept-in-postgres");
        await().atMost(WITHIN).until(() -> history.keptLog(key, Role.TRAINER, 0).isPresent());

        assertThat(backend.delete(key)).isTrue();

        JsonNode status = client.status("kept-in-postgres");
        assertThat(status.path("phase").asString()).isEqualTo("Succeeded");
        assertThat(status.path("archived").asBoolean()).isTrue();
        assertThat(client.logs("kept-in-postgres", "role=trainer&index=0")).isEqualTo("first\nsecond\n");
        assertThat(db.sql("select phase from job_history where namespace = 'default' and name = 'kept-in-postgres'")
                .query(String.class).single()).isEqualTo("SUCCEEDED");
        assertThat(client.delete("/jobs/kept-in-postgres").statusCode()).isEqualTo(204);
        assertThat(db.sql("select count(*) from job_history where namespace = 'default'").query(Integer.class).single())
                .isZero();
    }

    /**
     * Two replicas of the service on this one database, as a deployment runs them: this one and another in a
     * JVM of its own. Each has a data root of its own, as two pods or machines have: a replica's local backend
     * runs its jobs as its own processes and reads its records back at start, so two never share one. The
     * other replica drives the sweep first (this one's driver waits until it holds the claim, then looks beside
     * it); it is stopped normally mid-sweep, which gives its claim up and stops the trial it ran (failed,
     * ServiceStopped); this replica takes the sweep over and finishes it. Each trial starts once (its trainer
     * writes a mark when it starts), and each is one job in the shared history.
     */
    @Test
    void twoReplicasOnOneDatabaseDriveASweepOneAtATimeAndTheOtherFinishesItWhenTheDriverStops() throws Exception {
        Path marks = Files.createDirectories(dir.resolve("marks"));
        SyntheticTrials trials = SyntheticTrials.in(dir.resolve("synthetic"));
        String sweep = """
                {"name": "shared", "parallel": 1, "objective": {"metric": "loss"},
                 "template": {"mode": "collective", "entry_point": "%s", "num_cpus": 1,
                              "env": {"STEPS": "3", "HOLD_AT": "1", "RELEASE_DIR": "%s", "MARK_DIR": "%s"}},
                 "parameters": [{"name": "quality", "env": "QUALITY", "values": [0.3, 0.1, 0.2]}]}"""
                .formatted(trials.entryPoint(), trials.releaseDir(), marks);
        String database = PostgresServer.current().url(db.sql("select current_database()").query(String.class).single());
        String here = ProcessHandle.current().pid() + "@";
        Lifecycle driverHere = context.getBean("sweepDriverLifecycle", Lifecycle.class);

        // C1 alone, as the image runs the service: it starts in about half the time on a busy machine.
        ServiceProcess other = ServiceProcess.startWithJvmOptions(List.of("-XX:TieredStopAtLevel=1"),
                dir.resolve("other-replica"), "--spring.datasource.url=" + database,
                "--spring.datasource.username=" + PostgresServer.current().user(),
                "--spring.datasource.password=" + PostgresServer.current().password(), "--paddlejobs.sweeps.look-every=200ms");
        try {
            ServiceClient there = new ServiceClient(other.port());
            String otherReplica = other.pid() + "@";
            driverHere.stop();
            try {
                HttpResponse<String> created = there.post("/sweeps?namespace=replicas", sweep);
                assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
                await().atMost(WITHIN).until(() -> driver(there).startsWith(otherReplica));
            } finally {
                driverHere.start();
            }
            await().atMost(WITHIN).until(() -> started(marks).contains("shared-t1 0"));
            trials.release("shared-t1");
            // trial 1 ended; the other replica, still the driver beside this one's, started trial 2 (held)
            await().atMost(WITHIN).until(() -> started(marks).contains("shared-t2 0"));
            assertThat(driver(client)).startsWith(otherReplica);
        } finally {
            other.close(); // SIGTERM: a normal stop
        }

        await().atMost(WITHIN).untilAsserted(() -> {
            JsonNode taken = client.getJson("/sweeps/shared?namespace=replicas");
            assertThat(taken.path("driver").asString("")).as(taken.toString()).startsWith(here);
            assertThat(started(marks)).as(taken.toString()).contains("shared-t3 0");
        });
        trials.release("shared-t3");
        JsonNode ended = await().atMost(WITHIN).until(() -> client.getJson("/sweeps/shared?namespace=replicas"),
                s -> s.has("finished_at"));

        assertThat(ended.path("phase").asString()).as(ended.toString()).isEqualTo("Succeeded");
        List<String> outcomes = new ArrayList<>();
        ended.path("trials").forEach(trial -> outcomes.add(trial.path("name").asString() + " "
                + trial.path("phase").asString() + " " + trial.path("reason").asString()));
        assertThat(outcomes).containsExactly("shared-t1 Succeeded Completed", "shared-t2 Failed ServiceStopped",
                "shared-t3 Succeeded Completed");
        assertThat(ended.path("best").path("name").asString()).isEqualTo("shared-t3");
        assertThat(started(marks)).containsExactly("shared-t1 0", "shared-t2 0", "shared-t3 0");
        assertThat(db.sql("select name from job_history where namespace = 'replicas' order by name").query(String.class).list())
                .containsExactly("shared-t1", "shared-t2", "shared-t3");
    }

    private static String driver(ServiceClient replica) {
        return replica.getJson("/sweeps/shared?namespace=replicas").path("driver").asString("");
    }

    private static List<String> started(Path marks) throws Exception {
        Path file = marks.resolve("started");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }
}

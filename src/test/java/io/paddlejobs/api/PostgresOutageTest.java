package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.metrics.MetricsArchive;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.PostgresServer;
import io.paddlejobs.testing.ServiceClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history's PostgreSQL is away for a while: submits meanwhile are refused in words and start
 * nothing, and a job that finished meanwhile is in the history once the database is back.
 */
@Tag("postgres")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PostgresOutageTest {

    private static final Duration WITHIN = Duration.ofSeconds(60);

    @TempDir
    static Path dataRoot;

    static PostgresServer database;

    @LocalServerPort
    int port;

    @Autowired
    JobBackend backend;

    @Autowired
    JobHistory history;

    @Autowired
    MetricsArchive archive;

    ServiceClient client;

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        database = PostgresServer.startOwn();
        registry.add("paddlejobs.local.data-root", dataRoot::toString);
        registry.add("spring.datasource.url", database::newDatabase);
        registry.add("spring.datasource.username", database::user);
        registry.add("spring.datasource.password", database::password);
        // Fewer idle connections to find broken when the database is back.
        registry.add("spring.datasource.hikari.minimum-idle", () -> 1);
    }

    @AfterAll
    static void stopDatabase() {
        database.close();
    }

    @BeforeEach
    void realPortClient() {
        client = new ServiceClient(port);
    }

    @Test
    void submitsAreRefusedWhileTheStoreIsAwayAndWhatFinishedMeanwhileIsWrittenWhenItIsBack() throws Exception {
        Path release = dataRoot.resolve("release");
        client.submit(LocalJobsApiTest.body("through-outage", "while [ ! -e '" + release + "' ]; do sleep 0.1; done; echo done"));
        client.awaitPhase("through-outage", "Running", WITHIN);
        JobKey key = new JobKey("default", "through-outage");

        database.stop();
        Files.createFile(release);
        client.awaitPhase("through-outage", "Succeeded", WITHIN);
        HttpResponse<String> refused = client.post("/jobs", LocalJobsApiTest.body("during-outage", "true"));

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = JsonMapper.builder().build().readTree(refused.body());
        assertThat(problem.path("type").asString()).isEqualTo("urn:paddlejobs:problem:history-unavailable");
        assertThat(refused.body()).doesNotContain("Exception");
        assertThat(backend.find(new JobKey("default", "during-outage"))).isEmpty();

        database.startAgain();

        await().atMost(WITHIN).until(() -> history.find(key).map(job -> job.status().phase() == JobPhase.SUCCEEDED)
                .orElse(false) && history.keptLog(key, Role.TRAINER, 0).isPresent());
        assertThat(history.keptLog(key, Role.TRAINER, 0)).hasValue("done\n");
        await().atMost(WITHIN).until(() -> archive.keptMetrics(key).isPresent());
        assertThat(client.post("/jobs", LocalJobsApiTest.body("after-outage", "true")).statusCode()).isEqualTo(201);
    }
}

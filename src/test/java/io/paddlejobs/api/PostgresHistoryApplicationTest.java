package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.PostgresServer;
import io.paddlejobs.testing.ServiceClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The service as a deployment runs it, with its history on PostgreSQL ({@code spring.datasource.*}):
 * migrated at start from an empty database, and a job the backend forgot served from it.
 */
@Tag("postgres")
@ExtendWith(PostgresServer.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PostgresHistoryApplicationTest {

    private static final Duration WITHIN = Duration.ofSeconds(120);

    @TempDir
    static Path dataRoot;

    @LocalServerPort
    int port;

    @Autowired
    JobBackend backend;

    @Autowired
    JobHistory history;

    @Autowired
    JdbcClient db;

    ServiceClient client;

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", dataRoot::toString);
        registry.add("spring.datasource.url", () -> PostgresServer.current().newDatabase());
        registry.add("spring.datasource.username", () -> PostgresServer.current().user());
        registry.add("spring.datasource.password", () -> PostgresServer.current().password());
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
        assertThat(db.sql("select count(*) from job_history").query(Integer.class).single()).isZero();
    }
}

package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** What one caller's submits may cost the service: plans of bounded size, and dry runs counted in the rate. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class SubmitAbuseTest {

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.security.limits.submissions-per-minute", () -> "3");
        registry.add("paddlejobs.security.limits.max-unfinished-jobs", () -> "1");
    }

    @LocalServerPort
    int port;

    @Test
    void aRequestThatWouldRepeatItsEnvIntoAHugePlanIsRefusedNamingEnv() {
        var client = new ServiceClient(port);
        StringBuilder env = new StringBuilder();
        for (int i = 0; i < 15; i++) {
            env.append(i == 0 ? "" : ",").append("\"BIG_").append(i).append("\":\"").append("v".repeat(4000)).append('"');
        }
        String amplified = "{\"name\":\"amp\",\"entry_point\":\"sleep 20\",\"trainers\":64,\"pservers\":64,\"num_cpus\":64,"
                + "\"env\":{" + env + "}}";

        HttpResponse<String> dryRun = client.post("/jobs?dry_run=true", amplified);
        HttpResponse<String> submit = client.post("/jobs", amplified);

        assertThat(dryRun.statusCode()).isEqualTo(400);
        assertThat(dryRun.body()).contains("\"env\"", "max-plan-size");
        assertThat(submit.statusCode()).isEqualTo(400);

        // Those refusals did not use up the rate of 3 per minute; dry runs and new jobs do, refusals and retries do not.
        assertThat(client.post("/jobs?dry_run=true", "{\"name\":\"a\",\"entry_point\":\"true\"}").statusCode()).isEqualTo(200);
        assertThat(client.post("/jobs", "{\"name\":\"held\",\"entry_point\":\"sleep 60\"}").statusCode()).isEqualTo(201);
        assertThat(client.post("/jobs", "{\"name\":\"second\",\"entry_point\":\"true\"}").statusCode()).isEqualTo(429);
        assertThat(client.post("/jobs", "{\"name\":\"held\",\"entry_point\":\"sleep 60\"}").statusCode()).isEqualTo(200);
        assertThat(client.post("/jobs?dry_run=true", "{\"name\":\"b\",\"entry_point\":\"true\"}").statusCode()).isEqualTo(200);
        HttpResponse<String> overRate = client.post("/jobs?dry_run=true", "{\"name\":\"c\",\"entry_point\":\"true\"}");
        assertThat(overRate.statusCode()).isEqualTo(429);
        assertThat(overRate.body()).contains("submission-rate-limit");
        client.send("POST", "/jobs/held/cancel", null);
    }
}

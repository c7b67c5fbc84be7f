package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.RawHttp;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** With a base URL and an extra host name configured: links come from the base URL, never from the Host sent. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class BaseUrlTest {

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.security.base-url", () -> "https://jobs.example.org");
        registry.add("paddlejobs.security.allowed-hosts", () -> "jobs.example.org");
    }

    @LocalServerPort
    int port;

    @Test
    void locationAndStatusUrlComeFromTheBaseUrl() {
        RawHttp.Response submitted = RawHttp.send(port, "POST", "/jobs", Map.of("Host", "jobs.example.org",
                "Content-Type", "application/json"), "{\"name\":\"linked\",\"entry_point\":\"true\"}");

        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        assertThat(submitted.headers().get("location")).isEqualTo("https://jobs.example.org/jobs/linked?namespace=default");
        assertThat(submitted.body()).contains("\"status_url\":\"https://jobs.example.org/jobs/linked/status?namespace=default\"");
        assertThat(RawHttp.send(port, "GET", "/jobs", Map.of("Host", "other.example"), null).status()).isEqualTo(403);
    }
}

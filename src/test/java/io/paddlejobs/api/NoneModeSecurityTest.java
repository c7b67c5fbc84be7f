package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Mode {@code none}, the default: no token asked for anywhere, but the same headers on every response. */
@ExtendWith(OutputCaptureExtension.class)
class NoneModeSecurityTest extends ApiTest {


    @Test
    void everyNamespaceIsOpenWithoutAToken() {
        HttpResponse<String> submitted = client.post("/jobs?namespace=anyone", "{\"name\": \"open\", \"entry_point\": \"true\"}");

        assertThat(submitted.statusCode()).isEqualTo(201);
        assertThat(client.get("/jobs/open?namespace=anyone").statusCode()).isEqualTo(200);
        assertThat(client.get("/jobs/open?namespace=anyone").headers().firstValue("WWW-Authenticate")).isEmpty();
    }

    @Test
    void pagesAndTheApiCarryTheSecurityHeaders() {
        for (String accept : new String[] {"text/html", "application/json"}) {
            HttpResponse<String> response = client.get("/jobs", accept);

            assertThat(response.headers().firstValue("Content-Security-Policy")).as(accept)
                    .hasValue("default-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'");
            assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(response.headers().firstValue("X-Frame-Options")).hasValue("DENY");
            assertThat(response.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        }
        assertThat(client.get("/swagger-ui/index.html").headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(policy -> assertThat(policy).contains("img-src 'self' data:", "frame-ancestors 'none'"));
    }

    @Test
    void pageCachingIsLeftAsTheControllersSetIt() {
        assertThat(client.get("/jobs", "text/html").headers().firstValue("Cache-Control")).hasValue("no-cache");
    }

    @Test
    void noOtherOriginMayCallFromABrowserUnlessConfigured() {
        HttpResponse<String> preflight = client.send(HttpRequest.newBuilder(URI.create(client.baseUrl() + "/jobs"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "https://elsewhere.example")
                .header("Access-Control-Request-Method", "POST"));

        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void actionsAreAuditedAsTheAnonymousUser(CapturedOutput output) {
        client.post("/jobs", "{\"name\": \"by-anyone\", \"entry_point\": \"true\"}");

        await().atMost(Duration.ofSeconds(5)).until(() -> output.getOut().contains(
                "action=submit user=anonymous namespace=default job=by-anyone outcome=created status=201"));
    }
}

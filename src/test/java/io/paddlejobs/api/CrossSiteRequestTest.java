package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.RawHttp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Mode none against a real running service: what a DNS-rebound page and a cross-site form send is
 * refused, while curl-like callers and the service's own pages still get through.
 */
@Tag("redteam") // Red team round 1, H1: DNS rebinding and cross-site forms in mode none.
class CrossSiteRequestTest extends ApiTest {


    @Test
    void aReboundPageCannotSubmitAJobOrReadOne() {
        Path pwned = DATA_ROOT.resolve("rebind-pwned.txt");
        String job = "{\"name\":\"rebind\",\"entry_point\":\"id > " + pwned + "\"}";

        RawHttp.Response submit = RawHttp.send(port, "POST", "/jobs", Map.of("Host", "evil.example:" + port,
                "Origin", "http://evil.example:" + port, "Content-Type", "application/json"), job);
        RawHttp.Response list = RawHttp.send(port, "GET", "/jobs", Map.of("Host", "evil.example:" + port), null);

        assertThat(submit.status()).isEqualTo(403);
        assertThat(submit.headers().get("content-type")).startsWith("application/problem+json");
        assertThat(submit.body()).contains("host-not-allowed", "evil.example");
        assertThat(list.status()).isEqualTo(403);
        assertThat(client.get("/jobs/rebind").statusCode()).isEqualTo(404);
        assertThat(Files.exists(pwned)).isFalse();
    }

    @Test
    void aCrossSiteFormCannotCancelAJob() {
        client.submit("{\"name\":\"victim\",\"entry_point\":\"sleep 60\"}");

        RawHttp.Response cancel = RawHttp.send(port, "POST", "/jobs/victim/cancel", Map.of(
                "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site",
                "Content-Type", "application/x-www-form-urlencoded"), "a=b");
        RawHttp.Response nullOrigin = RawHttp.send(port, "DELETE", "/jobs/victim", Map.of("Origin", "null"), null);
        RawHttp.Response sameSiteOtherPort = RawHttp.send(port, "POST", "/jobs/victim/cancel",
                Map.of("Origin", "http://127.0.0.1:1", "Sec-Fetch-Site", "same-site"), null);

        assertThat(cancel.status()).isEqualTo(403);
        assertThat(cancel.body()).contains("cross-site-request");
        assertThat(nullOrigin.status()).isEqualTo(403);
        assertThat(sameSiteOtherPort.status()).isEqualTo(403);
        assertThat(client.getJson("/jobs/victim/status").get("phase").asString()).isIn("Pending", "Running");
        client.send("POST", "/jobs/victim/cancel", null);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/jobs/streamed/logs?follow=true  | */*               | Sec-Fetch-Site | cross-site",
            "/jobs/streamed/logs?tail=2       | */*               | Origin         | https://evil.example",
            "/jobs/streamed/status            | text/event-stream | Sec-Fetch-Site | cross-site",
            "/jobs?watch=true                 | text/event-stream | Origin         | null",
            "/jobs/?watch=true                | text/event-stream | Sec-Fetch-Site | same-site"})
    void aPageFromAnotherSiteCannotOpenStreamsThatWouldTakeTheUsersSlots(String path, String accept, String header,
                                                                          String value) {
        RawHttp.Response stream = RawHttp.send(port, "GET", path, Map.of("Accept", accept, header, value), null);

        assertThat(stream.status()).as(stream.body()).isEqualTo(403);
        assertThat(stream.headers().get("content-type")).startsWith("application/problem+json");
        assertThat(stream.body()).contains("cross-site-request", "open streams");
    }

    @Test
    void aCrossSitePageStillReadsWhatIsNoStream() {
        RawHttp.Response status = RawHttp.send(port, "GET", "/jobs/none-such/status",
                Map.of("Accept", "application/json", "Sec-Fetch-Site", "cross-site"), null);

        assertThat(status.status()).as(status.body()).isEqualTo(404);
    }

    @Test
    void theServicesOwnPagesAndProgramsStillGetThrough() {
        client.submit("{\"name\":\"own\",\"entry_point\":\"sleep 60\"}");

        RawHttp.Response fromOwnPage = RawHttp.send(port, "POST", "/jobs/own/cancel", Map.of(
                "Origin", "http://127.0.0.1:" + port, "Sec-Fetch-Site", "same-origin"), null);
        RawHttp.Response curlByName = RawHttp.send(port, "POST", "/jobs", Map.of("Host", "localhost:" + port,
                "Content-Type", "application/json"), "{\"name\":\"by-name\",\"entry_point\":\"true\"}");

        RawHttp.Response ownWatch = RawHttp.send(port, "GET", "/jobs?watch=true&timeout_seconds=1", Map.of(
                "Accept", "text/event-stream", "Origin", "http://127.0.0.1:" + port, "Sec-Fetch-Site", "same-origin"), null);

        assertThat(fromOwnPage.status()).as(fromOwnPage.body()).isEqualTo(200);
        assertThat(ownWatch.status()).as(ownWatch.body()).isEqualTo(200);
        assertThat(curlByName.status()).as(curlByName.body()).isEqualTo(201);
        assertThat(curlByName.headers().get("location")).isEqualTo("http://localhost:" + port + "/jobs/by-name?namespace=default");
    }
}

package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.packages.Archives;
import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Packages' share of the service and their lifecycle, with short settings: slow and concurrent
 * uploads, the namespace quota, listing, deleting around unfinished jobs, and expiry.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext // stop the jobs' processes before the temporary directory goes
class PackageLifecycleTest {

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.local.max-running-jobs", () -> 20);
        registry.add("paddlejobs.packages.max-uploads-per-user", () -> 2);
        registry.add("paddlejobs.packages.namespace-max-count", () -> 2);
        registry.add("paddlejobs.packages.expire-after", () -> "3s");
    }

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();

    @Test
    void slowUploadsAreCutOffWith408AndAUsersThirdAtOnceIs429() throws Exception {
        ServiceClient client = new ServiceClient(port);
        try (Socket one = slowUpload(); Socket two = slowUpload()) {
            // Both hold their slot while they trickle; a third upload by the same user is turned away at once.
            await().atMost(Duration.ofSeconds(10)).until(() -> client.upload("not gzip".getBytes(), "slow").statusCode() == 429);
            HttpResponse<String> third = client.upload("not gzip".getBytes(), "slow");
            assertThat(third.body()).contains("too-many-uploads", "max-uploads-per-user");

            List<String> answers = trickle(one, two);

            assertThat(answers).allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 408").contains("upload-too-slow"));
        }
        // Their slots were given back.
        assertThat(client.upload("not gzip".getBytes(), "slow").statusCode()).isEqualTo(400);
    }

    @Test
    void aNamespaceKeepsAtMostItsQuotaOfPackagesUntilOneIsDeleted() {
        ServiceClient client = new ServiceClient(port);
        String first = id(client.upload(new Archives().file("1.py", "1").bytes(), "quota"));
        id(client.upload(new Archives().file("2.py", "2").bytes(), "quota"));

        HttpResponse<String> over = client.upload(new Archives().file("3.py", "3").bytes(), "quota");
        HttpResponse<String> elsewhere = client.upload(new Archives().file("3.py", "3").bytes(), "quota-other");

        assertThat(over.statusCode()).isEqualTo(413);
        assertThat(over.body()).contains("package-quota", "'quota' keeps 2 packages", "DELETE /packages/");
        assertThat(elsewhere.statusCode()).isEqualTo(201);
        assertThat(client.delete("/packages/" + first + "?namespace=quota").statusCode()).isEqualTo(204);
        assertThat(client.upload(new Archives().file("3.py", "3").bytes(), "quota").statusCode()).isEqualTo(201);
    }

    @Test
    void aPackageIsListedWithItsJobsAndDeletedOnlyOnceNoUnfinishedJobNamesIt() {
        ServiceClient client = new ServiceClient(port);
        String id = id(client.upload(new Archives().file("hold.sh", "sleep 60\n", 0755).bytes(), "lifecycle"));
        client.submit("{\"name\": \"holder\", \"entry_point\": \"./hold.sh\", \"package\": \"" + id + "\"}", "lifecycle");

        JsonNode listed = client.getJson("/packages?namespace=lifecycle");
        HttpResponse<String> refused = client.delete("/packages/" + id + "?namespace=lifecycle");

        assertThat(listed.at("/items/0/package").asString()).isEqualTo(id);
        assertThat(listed.at("/items/0/size").asLong()).isPositive();
        assertThat(listed.at("/items/0/created").asString()).isNotEmpty();
        assertThat(listed.at("/items/0/last_used").asString()).isNotEmpty();
        assertThat(listed.at("/items/0/used_by/0").asString()).isEqualTo("holder");
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.body()).contains("package-in-use", "holder");

        assertThat(client.post("/jobs/holder/cancel?namespace=lifecycle", "").statusCode()).isEqualTo(200);
        assertThat(client.delete("/packages/" + id + "?namespace=lifecycle").statusCode()).isEqualTo(204);
        assertThat(client.getJson("/packages?namespace=lifecycle").path("items")).isEmpty();
        assertThat(client.delete("/packages/" + id + "?namespace=lifecycle").statusCode()).isEqualTo(404);
    }

    @Test
    void anUnusedPackageExpiresAndOneAnUnfinishedJobNamesStays() {
        ServiceClient client = new ServiceClient(port);
        String unused = id(client.upload(new Archives().file("old.py", "1").bytes(), "expiring"));
        String held = id(client.upload(new Archives().file("hold.sh", "sleep 60\n", 0755).bytes(), "expiring"));
        client.submit("{\"name\": \"keeps-it\", \"entry_point\": \"./hold.sh\", \"package\": \"" + held + "\"}", "expiring");

        await().atMost(Duration.ofSeconds(20)).until(() -> !client.getJson("/packages?namespace=expiring").toString()
                .contains(unused));

        // Long past its 3 s, the package its running job names is still there.
        assertThat(client.getJson("/packages?namespace=expiring").at("/items/0/package").asString()).isEqualTo(held);
        assertThat(client.post("/jobs/keeps-it/cancel?namespace=expiring", "").statusCode()).isEqualTo(200);
    }

    private String id(HttpResponse<String> uploaded) {
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
        return json.readTree(uploaded.body()).get("package").asString();
    }

    /** An upload that declares 60,000 bytes and sends one: its request thread now waits for the rest. */
    private Socket slowUpload() throws IOException {
        Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port);
        socket.setSoTimeout(20_000);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /packages?namespace=slow HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nContent-Type: application/gzip\r\nContent-Length: 60000\r\nConnection: close\r\n\r\n\u001f")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return socket;
    }

    /**
     * The attack itself: a byte on each every 300 ms until the service has answered both, while they
     * still trickle (60,000 bytes declared: the bodies never end); then what it answered.
     */
    private static List<String> trickle(Socket... sockets) throws Exception {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            boolean allAnswered = true;
            for (Socket socket : sockets) {
                try {
                    socket.getOutputStream().write(0);
                    socket.getOutputStream().flush();
                } catch (IOException e) {
                    // answered and closed
                }
                allAnswered &= socket.getInputStream().available() > 0;
            }
            return allAnswered;
        });
        List<String> answers = new java.util.ArrayList<>();
        for (Socket socket : sockets) {
            socket.shutdownOutput();
            answers.add(new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        return answers;
    }
}

package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.CodePackages;
import io.paddlejobs.packages.Archives;
import io.paddlejobs.testing.Tokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * A package's content URL, which a job's pod fetches it from, in mode {@code token}: the URL is the
 * credential, signed for one namespace and one package, so that path alone needs no token; anything
 * not exactly right is the same 404, which tells a guesser nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PackageContentUrlTest {

    static final String ALICE = "alice-content-s3cret";
    static final String BOB = "bob-content-s3cret";

    @TempDir
    static Path tmp;

    @LocalServerPort
    int port;

    @Autowired
    CodePackages packages;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        String tokens = Tokens.aliceAndBob(tmp, ALICE, BOB);
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
        registry.add("paddlejobs.security.mode", () -> "token");
        registry.add("paddlejobs.security.token-file", () -> tokens);
    }

    private HttpResponse<byte[]> get(String path, String token) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private String upload(byte[] archive, String namespace, String token) throws Exception {
        var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/packages?namespace=" + namespace))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(archive)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        Matcher id = Pattern.compile("sha256:[0-9a-f]{64}").matcher(response.body());
        assertThat(id.find()).isTrue();
        return id.group();
    }

    @Test
    void theRightNamespaceAndKeyGetTheArchiveWithNoToken() throws Exception {
        byte[] archive = new Archives().file("train.py", "print('team a')\n").bytes();
        String id = upload(archive, "team-a", ALICE);

        var response = get(packages.fetch("team-a", id).path(), null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/gzip");
        assertThat(response.body()).isEqualTo(archive);
    }

    @Test
    void aWrongKeyAnotherNamespaceOrAnUnknownPackageIsTheSame404Problem() throws Exception {
        String id = upload(new Archives().file("a.py", "print('a')\n").bytes(), "team-a", ALICE);
        String unknown = "sha256:" + "9".repeat(64);
        String good = packages.fetch("team-a", id).path();
        List<String> wrong = List.of(
                good.substring(0, good.length() - 3) + "xyz",                          // a wrong key
                good.substring(0, good.indexOf("&key=")),                              // no key
                good.replace("namespace=team-a", "namespace=team-b"),                  // team-a's key for team-b
                packages.fetch("team-b", id).path(),                                   // signed, but team-b never uploaded it
                packages.fetch("team-a", unknown).path(),                              // signed, but never uploaded
                good.replace("namespace=team-a", "namespace=..%2Fteam-a"));            // not a namespace at all

        for (String path : wrong) {
            var response = get(path, null);
            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            JsonNode problem = json.readTree(response.body());
            assertThat(problem.path("title").asString()).isEqualTo("Package not found");
            assertThat(problem.path("detail").asString()).as("the same words whatever was wrong")
                    .isEqualTo("No package at this address: the package, its namespace or the URL's key is not right.");
        }
    }

    @Test
    void onlyTheContentPathIsOpenWithoutAToken() throws Exception {
        String id = upload(new Archives().file("b.py", "print('b')\n").bytes(), "team-a", ALICE);

        assertThat(get("/packages/" + id + "?namespace=team-a", null).statusCode()).isEqualTo(401);
        assertThat(get("/jobs?namespace=team-a", null).statusCode()).isEqualTo(401);
        assertThat(get("/packages/" + id + "?namespace=team-a", BOB).statusCode()).isEqualTo(403);
        assertThat(get("/packages/" + id + "?namespace=team-a", ALICE).statusCode()).isEqualTo(200);
        assertThat(get(packages.fetch("team-a", id).path(), null).statusCode()).isEqualTo(200);
    }
}

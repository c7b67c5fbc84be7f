package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import io.paddlejobs.packages.Archives;
import io.paddlejobs.packages.Bombs;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.web.BodySizeLimitFilter;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/** Code packages: uploaded once, named by their content, unpacked where a job's replicas start. */
class PackagesApiTest extends ApiTest {

    static final MediaType GZIP = MediaType.parseMediaType("application/gzip");

    @Test
    void uploadAnswersTheContentAddressAndTheSameOneAgain() throws Exception {
        byte[] bytes = new Archives().file("train.py", "print('uploaded once')\n").bytes();
        String expected = "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));

        MvcResult first = upload(bytes, "default");
        MvcResult again = upload(bytes, "default");

        assertThat(first.getResponse().getStatus()).isEqualTo(201);
        assertThat(first.getResponse().getHeader("Location")).isEqualTo("/packages/" + expected + "?namespace=default");
        assertThat(bodyOf(first).path("package").asString()).isEqualTo(expected);
        assertThat(bodyOf(first).path("size").asLong()).isEqualTo(bytes.length);
        assertThat(again.getResponse().getStatus()).isEqualTo(200);
        assertThat(bodyOf(again).path("package").asString()).isEqualTo(expected);
    }

    @Test
    void anArchiveOverTheJobRequestsBodyLimitIsAccepted() throws Exception {
        byte[] noise = new byte[200 * 1024];
        new java.util.Random(13).nextBytes(noise); // incompressible: the archive is over 64 KiB
        byte[] bytes = new Archives().file("weights.bin", new String(noise, java.nio.charset.StandardCharsets.ISO_8859_1))
                .bytes();

        MvcResult uploaded = upload(bytes, "default");

        assertThat(bytes.length).isGreaterThan((int) BodySizeLimitFilter.LIMIT);
        assertThat(uploaded.getResponse().getStatus()).as(uploaded.getResponse().getContentAsString()).isEqualTo(201);
    }

    @Test
    void uploadOfAnArchiveThatReachesOutsideIsAProblemAndNothingIsKept() throws Exception {
        byte[] bytes = new Archives().file("../../escape.py", "evil").bytes();

        JsonNode problem = assertProblem(upload(bytes, "default"), 400);

        assertThat(problem.path("detail").asString()).contains("'../../escape.py'", "..");
        assertThat(problem.at("/errors/0/field").asString()).isEqualTo("body");
    }

    @Test
    void uploadOfAnotherMediaTypeIsUnsupported() throws Exception {
        assertProblem(mvc.perform(post("/packages").contentType(MediaType.APPLICATION_JSON).content("{}")).andReturn(),
                415);
    }

    @Test
    void aPackageIsUsableOnlyByTheNamespaceThatUploadedIt() throws Exception {
        String id = bodyOf(upload(new Archives().file("mine.py", "print('team a')\n").bytes(), "team-a"))
                .path("package").asString();

        MvcResult elsewhere = mvc.perform(post("/jobs").queryParam("dry_run", "true").queryParam("namespace", "team-b")
                .contentType(MediaType.APPLICATION_JSON)
                .content(json("{'entry_point':'python3 mine.py','package':'%s'}".formatted(id)))).andReturn();
        MvcResult download = mvc.perform(get("/packages/" + id).queryParam("namespace", "team-b")).andReturn();
        MvcResult own = mvc.perform(get("/packages/" + id).queryParam("namespace", "team-a")).andReturn();

        assertThat(assertProblem(elsewhere, 400).at("/errors/0/field").asString()).isEqualTo("package");
        assertProblem(download, 404);
        assertThat(own.getResponse().getStatus()).isEqualTo(200);
    }

    @Test
    void aMalformedPackageFieldNamesTheRule() throws Exception {
        JsonNode problem = assertProblem(dryRun(json("{'entry_point':'true','package':'md5:abc'}")), 400);

        assertThat(problem.at("/errors/0/field").asString()).isEqualTo("package");
        assertThat(problem.at("/errors/0/message").asString()).contains("sha256:");
    }

    @Test
    void replicasStartInTheUnpackedPackage() throws Exception {
        byte[] bytes = new Archives().directory("lib").file("lib/words.txt", "shipped with the job\n")
                .file("run.sh", "cat lib/words.txt\n", 0755).bytes();
        String id = bodyOf(upload(bytes, "default")).path("package").asString();

        MvcResult submitted = mvc.perform(post("/jobs").contentType(MediaType.APPLICATION_JSON)
                .content(json("{'name':'shipped','entry_point':'./run.sh','package':'%s'}".formatted(id)))).andReturn();

        assertThat(submitted.getResponse().getStatus()).as(submitted.getResponse().getContentAsString()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> bodyOf(mvc.perform(get("/jobs/shipped/status")).andReturn())
                .path("phase").asString(), "Succeeded"::equals);
        String log = new ServiceClient(port).get("/jobs/shipped/logs").body();
        assertThat(log).contains("shipped with the job");
    }

    /** The report's header bombs, scaled to build quickly; the first two would still be read whole without the caps. */
    static Stream<Arguments> headerBombs() {
        return Stream.of(
                Arguments.of("pax-keys 100k", (Supplier<InputStream>) () -> Bombs.paxKeys(100_000), "PAX header holds"),
                Arguments.of("longname 64 MiB", (Supplier<InputStream>) () -> Bombs.longName(64), "long-name header holds"),
                Arguments.of("chain of 200k L", (Supplier<InputStream>) () -> Bombs.chain(200_000, 'L'),
                        "more than 4 long-name or PAX headers precede one entry"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headerBombs")
    void aHeaderBombIsA400NamingTheRuleAndTheServiceStillAnswers(String bomb, Supplier<InputStream> archive, String rule) {
        ServiceClient client = new ServiceClient(port);
        byte[] bytes = Bombs.bytes(archive.get());

        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(client.baseUrl() + "/packages"))
                .header("Content-Type", "application/gzip").POST(HttpRequest.BodyPublishers.ofByteArray(bytes)));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        // The rule the answer names is the cap that stopped the read: the bomb was not read whole.
        assertThat(answer.body()).contains(rule);
        assertThat(client.get("/actuator/health").statusCode()).isEqualTo(200);
    }

    @Test
    void anArchiveUnpackingWouldRefuseIsRefusedAtUpload() throws Exception {
        byte[] bytes = new Archives().file("a", "1").directory("a").bytes();

        JsonNode problem = assertProblem(upload(bytes, "default"), 400);

        assertThat(problem.path("detail").asString()).contains("'a/'", "as a file and as a directory");
    }

    @Test
    void aJobWhosePackageDoesNotUnpackFailsWithAShortMessageAndNoHostPath() throws Exception {
        String id = bodyOf(upload(new Archives().file("ok.py", "print(1)\n").bytes(), "default")).path("package").asString();
        // The stored copy is replaced behind the service's back, by something the upload's check would refuse.
        Path stored = DATA_ROOT.resolve("packages/default/" + id.substring("sha256:".length()) + ".tar.gz");
        Files.write(stored, new Archives().file("c".repeat(300), "1").bytes());

        MvcResult submitted = mvc.perform(post("/jobs").contentType(MediaType.APPLICATION_JSON)
                .content(json("{'name':'unpacks-not','entry_point':'true','package':'%s'}".formatted(id)))).andReturn();
        assertThat(submitted.getResponse().getStatus()).as(submitted.getResponse().getContentAsString()).isEqualTo(201);
        JsonNode status = await().atMost(Duration.ofSeconds(30))
                .until(() -> bodyOf(mvc.perform(get("/jobs/unpacks-not/status")).andReturn()),
                        s -> s.path("phase").asString().equals("Failed"));

        assertThat(status.path("message").asString()).contains(id, "component over 255 bytes")
                .doesNotContain(DATA_ROOT.toString(), "ProblemDetail").hasSizeLessThan(600);
    }

    private MvcResult upload(byte[] bytes, String namespace) throws Exception {
        return mvc.perform(post("/packages").queryParam("namespace", namespace).contentType(GZIP).content(bytes))
                .andReturn();
    }
}

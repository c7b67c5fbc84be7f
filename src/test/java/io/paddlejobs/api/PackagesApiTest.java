package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import io.paddlejobs.packages.Archives;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/** Code packages: uploaded once, named by their content, unpacked where a job's replicas start. */
class PackagesApiTest extends ApiTest {

    @LocalServerPort
    int port;

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

    private MvcResult upload(byte[] bytes, String namespace) throws Exception {
        return mvc.perform(post("/packages").queryParam("namespace", namespace).contentType(GZIP).content(bytes))
                .andReturn();
    }
}

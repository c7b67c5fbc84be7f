package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The running service, shared by every HTTP test class: one application context (same
 * configuration, so Spring's test context cache starts it once), reachable through MockMvc
 * and on a real port ({@link #client}). Job files go to a fresh temporary folder.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
abstract class ApiTest {

    static final Path DATA_ROOT = temporaryDataRoot();
    /** The operator's secret store (paddlejobs.secrets.store), empty until a class puts a secret in it. */
    static final Path SECRET_STORE = DATA_ROOT.resolveSibling(DATA_ROOT.getFileName() + "-secrets");

    @Autowired
    MockMvc mvc;

    @Autowired
    JsonMapper json;

    @LocalServerPort
    int port;

    /** The service on its real port: for what MockMvc does not go through (headers, streams, processes). */
    ServiceClient client;

    @BeforeEach
    void realPortClient() {
        client = new ServiceClient(port);
    }

    @DynamicPropertySource
    static void dataRoot(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", DATA_ROOT::toString);
        registry.add("paddlejobs.secrets.store", SECRET_STORE::toString);
        // Classes leave sleeping jobs behind; the default four slots would queue the next class's jobs.
        registry.add("paddlejobs.local.max-running-jobs", () -> 50);
        // Likewise the CPUs and memory they are counted against.
        registry.add("paddlejobs.local.cpus", () -> 1000);
        registry.add("paddlejobs.local.memory", () -> "64TB");
        // An 8-GPU server (by index: no nvidia-smi needed), so that the GPU examples plan and run here.
        registry.add("paddlejobs.local.gpus", () -> "0,1,2,3,4,5,6,7");
        // A short body deadline, so that SlowBodyTest trickles a body past it in seconds; every other
        // class's bodies arrive in one write.
        registry.add("paddlejobs.web.request-body-timeout", () -> "2s");
        // JobWatchApiTest opens 300 streams one after another as one caller, and each counts until the service
        // sees its client gone: above the per-caller default (256), with the total it takes (a sixteenth each).
        registry.add("paddlejobs.streams.max-open-per-user", () -> 1024);
        registry.add("paddlejobs.streams.max-open", () -> 16 * 1024);
    }

    /** {@code {'a':1}} -> {@code {"a":1}}: request bodies in tables read better without escaped quotes. */
    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    MvcResult dryRun(String body) throws Exception {
        return mvc.perform(post("/jobs").queryParam("dry_run", "true")
                .contentType(MediaType.APPLICATION_JSON).content(body)).andReturn();
    }

    JsonNode bodyOf(MvcResult result) throws Exception {
        return json.readTree(result.getResponse().getContentAsString());
    }

    /** A problem document (RFC 9457) with the given status, a title, and nothing internal in it. */
    JsonNode assertProblem(MvcResult result, int status) throws Exception {
        String body = result.getResponse().getContentAsString();
        assertThat(result.getResponse().getStatus()).as("status of %s", body).isEqualTo(status);
        assertThat(MediaType.parseMediaType(result.getResponse().getContentType()))
                .as("content type of %s", body)
                .matches(type -> type.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        assertThat(body).doesNotContain("Exception").doesNotContain("java.");
        JsonNode problem = json.readTree(body);
        assertThat(problem.path("title").asString("")).as("title of %s", body).isNotBlank();
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        return problem;
    }

    private static Path temporaryDataRoot() {
        try {
            Path root = Files.createTempDirectory("paddle-jobs-api-test-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                deleteQuietly(root);
                deleteQuietly(root.resolveSibling(root.getFileName() + "-secrets"));
            }));
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a leftover temporary folder is harmless
        }
    }
}

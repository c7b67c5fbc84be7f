package io.paddlejobs.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The image the Dockerfile describes, built by .ci/prepare-image and run as a container engine runs
 * it, with its own defaults (the local backend): what only the built image can show (its user, its
 * files, its entry point and the AOT cache its training run wrote).
 */
@Tag("image")
class ImageTest {

    private static final Duration JOB_DEADLINE = Duration.ofMinutes(2);

    private static ImageContainer service;

    @BeforeAll
    static void start() {
        service = ImageContainer.start(List.of(), List.of());
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void theServiceRunsAsTheImagesNonRootUser() throws IOException {
        List<String> status = Files.readAllLines(Path.of("/proc", String.valueOf(service.hostPid()), "status"));

        assertThat(status).anySatisfy(line -> assertThat(line).matches("Uid:\\s+10001\\s+10001\\s+10001\\s+10001"));
        assertThat(status).anySatisfy(line -> assertThat(line).matches("Gid:\\s+10001\\s+10001\\s+10001\\s+10001"));
        assertThat(service.exec("id", "-un")).isEqualToIgnoringNewLines("paddlejobs");
    }

    @Test
    void itIsReadyAndServesHealthAndTheApi() {
        ServiceClient client = service.client();

        assertThat(client.getJson("/actuator/health").path("status").asString()).isEqualTo("UP");
        assertThat(client.getJson("/actuator/health/liveness").path("status").asString()).isEqualTo("UP");
        assertThat(client.get("/jobs", "application/json").statusCode()).isEqualTo(200);
    }

    @Test
    void itRunsAJobOnTheLocalBackendInsideTheContainer() {
        ServiceClient client = service.client();

        client.submit("{\"name\": \"in-the-image\", \"entry_point\": \"echo trained by $(id -un)\"}");

        client.awaitPhase("in-the-image", "Succeeded", JOB_DEADLINE);
        assertThat(client.logs("in-the-image", "role=trainer&index=0")).contains("trained by");
    }

    @Test
    void theImageHoldsTheAotCacheItsEntryPointUses() {
        assertThat(PreparedImage.podmanOk("image", "inspect", "--format", "{{json .Config.Entrypoint}}", PreparedImage.NAME))
                .contains("-XX:AOTCache=app.aot", "-jar", "app.jar");
        assertThat(service.exec("sh", "-c", "test -s /app/app.aot && echo present")).isEqualToIgnoringNewLines("present");
    }

    @Test
    void theImagesLayersArePrintedWithTheirSizesLeastChangingFirst() {
        JsonNode history = JsonMapper.builder().build().readTree(PreparedImage.podmanOk("history", "--format", "json",
                PreparedImage.NAME));
        List<Layer> layers = new ArrayList<>();
        history.forEach(layer -> layers.add(0, new Layer(layer.path("size").asLong(), layer.path("CreatedBy").asString())));
        System.out.printf("the image %s, %d MB in all, by layer (oldest first):%n", PreparedImage.NAME,
                layers.stream().mapToLong(Layer::bytes).sum() / 1_000_000);
        layers.forEach(layer -> System.out.printf("%10.1f MB  %s%n", layer.bytes() / 1e6,
                layer.createdBy().substring(0, Math.min(100, layer.createdBy().length()))));

        // The dependencies first, the application's jar last (a code change ships that layer alone),
        // and the cache trained on both after them.
        List<Layer> copies = layers.stream().filter(layer -> layer.createdBy().contains("COPY")).toList();
        assertThat(copies).hasSize(4);
        Layer dependencies = copies.get(0);
        Layer application = copies.get(copies.size() - 1);
        assertThat(dependencies.bytes()).isGreaterThan(application.bytes()).isGreaterThan(10_000_000);
        int aot = layers.indexOf(layers.stream().filter(layer -> layer.createdBy().contains("AOTCacheOutput"))
                .findFirst().orElseThrow());
        assertThat(aot).isGreaterThan(layers.lastIndexOf(application));
    }

    /** One layer of {@code podman history}: its size and the step that made it. */
    private record Layer(long bytes, String createdBy) {
    }
}

package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A secret of the operator's store on the local backend: it reaches the replica's environment, and
 * nothing the service answers shows it (the plan, the dry run, the status, the log it printed).
 */
class SecretsApiTest extends ApiTest {

    /** Fresh per run, so that finding it anywhere is this test's doing. */
    private static final String VALUE = "s3cret-" + UUID.randomUUID();

    @BeforeAll
    static void storeTheSecret() throws IOException {
        Path dir = Files.createDirectories(SECRET_STORE.resolve("default").resolve("s3"));
        Path file = dir.resolve("secret");
        Files.writeString(file, VALUE + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    private static String request(String name, String secret) {
        return json("""
                {'name': '%s', 'mode': 'collective', 'trainers': 1,
                 'entry_point': 'echo \\"key=$S3_KEY\\"; printf %%s \\"$S3_KEY\\" | sha256sum',
                 'env_from_secrets': {'S3_KEY': {'secret': '%s', 'key': 'secret'}}}""".formatted(name, secret));
    }

    @Test
    void theValueReachesTheReplicaAndNothingTheServiceAnswers() throws Exception {
        JsonNode dryRun = bodyOf(dryRun(request("secret-dry", "s3")));
        assertThat(dryRun.toString()).contains("S3_KEY").doesNotContain(VALUE);

        HttpResponse<String> created = client.post("/jobs", request("secret-run", "s3"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(60)).until(() -> json.readTree(
                client.get("/jobs/secret-run/status").body()).path("phase").asString().equals("Succeeded"));

        String log = client.get("/jobs/secret-run/logs?role=trainer&index=0").body();
        assertThat(log).as("the replica saw the value: its hash is in the log").contains(sha256(VALUE))
                .contains("key=" + "[secret]").doesNotContain(VALUE);
        for (String path : new String[] {"/jobs/secret-run", "/jobs/secret-run/status", "/jobs?namespace=default"}) {
            assertThat(client.get(path).body()).as(path).doesNotContain(VALUE);
        }
    }

    @Test
    void aSecretTheNamespaceDoesNotHaveIsA400NamingItAndNothingIsCreated() throws Exception {
        JsonNode problem = assertProblem(dryRun(request("secret-missing", "gcs")), 400);
        assertThat(problem.toString()).contains("env_from_secrets.S3_KEY", "namespace default has no secret gcs");
        assertThat(client.post("/jobs", request("secret-missing", "gcs")).statusCode()).isEqualTo(400);
        assertThat(client.get("/jobs/secret-missing").statusCode()).isEqualTo(404);
    }

    @Test
    void aClustersPlacementIsRefusedByNameOnTheLocalBackend() throws Exception {
        JsonNode problem = assertProblem(dryRun(json("""
                {'name': 'placed', 'entry_point': 'true', 'node_selector': {'pool': 'gpu'}, 'shm_size': '1Gi'}""")), 400);
        assertThat(problem.toString()).contains("node_selector", "shm_size", "kubernetes backend");
    }

    private static String sha256(String value) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
    }
}

package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Red team, Slurm round: jobs run as the service's user, so a job can rename or replace anything on
 * the shared directory, and the service, on its own host, then deleted, made and wrote through the
 * link it left (H1: {@code jobs/<ns>} a link: a directory of the tenant's choosing emptied and
 * refilled; M4: {@code checkpoints} or {@code state} a link: directories made anywhere; L2: a file
 * in place of {@code jobs/<ns>}: a bare 500). Now nothing outside is touched and the submit is a
 * problem naming the job's files. Also L1 (the job's files readable by every local user) and each
 * replica's own working directory.
 */
@Tag("redteam")
class SlurmPlantedLinksTest extends SlurmServiceTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path sharedDir;
    @TempDir
    Path outside;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
        registry.add("paddlejobs.restarts.backoff", () -> "1s");
    }

    @Test
    void aNamespaceDirectoryReplacedByALinkGetsNothingDeletedMadeOrWrittenThroughIt() throws Exception {
        Path victim = victim("precious");
        plantAndAwait("team-b", "plant", inPlaceOfNamespace("team-b", "[ -L team-b ]", "ln -s " + victim + " team-b"),
                sharedDir.resolve("jobs/team-b"));

        HttpResponse<String> refused = submit("team-b", "precious", 1, "echo hi");
        HttpResponse<String> deleted = api.send("DELETE", "/jobs/plant?namespace=team-b", null);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        JsonNode problem = ServiceClient.parse(refused.body());
        assertThat(problem.path("type").asString()).isEqualTo("urn:paddlejobs:problem:job-files-unusable");
        assertThat(problem.path("detail").asString()).contains("jobs/team-b/precious", "jobs/team-b is a link");
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
        assertUntouched(victim, "precious");
    }

    @Test
    void aNamespaceDirectoryReplacedByAFileIsAProblemNamingTheJobsFilesNotA500() {
        plantAndAwait("team-c", "plant", inPlaceOfNamespace("team-c", "[ -f team-c ]", "echo not-a-directory > team-c"),
                sharedDir.resolve("jobs/team-c"));

        HttpResponse<String> refused = submit("team-c", "next", 1, "echo hi");

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        assertThat(ServiceClient.parse(refused.body()).path("detail").asString())
                .contains("jobs/team-c/next", "jobs/team-c is not a directory");
    }

    @Test
    void aCheckpointsLinkGetsNoDirectoryMadeThroughIt() throws Exception {
        Path victim = victim("kept");
        plantAndAwait("team-d", "plant", "cd \"$PADDLE_JOB_DATA\" && mv checkpoints cp.old && ln -s " + victim
                + " checkpoints", sharedDir.resolve("storage/team-d/checkpoints"));

        HttpResponse<String> refused = submit("team-d", "chosen-name", 1, "echo hi");

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        assertThat(ServiceClient.parse(refused.body()).path("detail").asString()).contains("storage/team-d/checkpoints is a link");
        assertUntouched(victim, "kept");
        assertThat(sharedDir.resolve("jobs/team-d/chosen-name")).as("nothing half-made is left").doesNotExist();
    }

    @Test
    void aStateLinkGetsNoAttemptDirectoryMadeThroughItAndTheJobFailsSayingWhy() throws Exception {
        Path victim = victim("kept");
        HttpResponse<String> submitted = submitRestarting("team-e", "stateful", "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ];"
                + " then cd \"$PADDLE_JOB_DATA/../../jobs/team-e/stateful\" && mv state state.old && ln -s " + victim + " state;"
                + " exit 3; fi; echo second-attempt");
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);

        JsonNode failed = api.awaitPhase("stateful", "team-e", "Failed", SlurmJobsApiTest.RUN);

        assertThat(failed.path("message").asString()).contains("restart 1 was not submitted", "state is a link");
        try (Stream<Path> left = Files.list(victim)) {
            assertThat(left.map(path -> path.getFileName().toString())).doesNotContain("attempt-1");
        }
    }

    @Test
    void theJobsFilesAreReadableByTheServicesUserAloneAndEachReplicaWorksInItsOwnDirectory() throws Exception {
        HttpResponse<String> submitted = submit("team-f", "ranks", 2, "echo rank-$PADDLE_TRAINER_ID > out.txt; sleep 1;"
                + " echo read-$(cat out.txt) pwd=$(pwd)");
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
        api.awaitPhase("ranks", "team-f", "Succeeded", SlurmJobsApiTest.RUN);

        Path job = sharedDir.toRealPath().resolve("jobs/team-f/ranks");
        for (int rank = 0; rank < 2; rank++) {
            assertThat(api.logs("ranks", "namespace=team-f&role=trainer&index=" + rank))
                    .contains("read-rank-" + rank + " pwd=" + job.resolve("work/trainer-" + rank));
        }
        for (Path dir : List.of(sharedDir.resolve("jobs"), sharedDir.resolve("storage"), job, job.resolve("env"),
                job.resolve("work/trainer-0"))) {
            assertThat(mode(dir)).as(dir.toString()).isEqualTo("rwx------");
        }
        for (Path file : List.of(job.resolve("env/trainer-0.env"), job.resolve("launch.sh"), job.resolve("entry/trainer"),
                job.resolve("job.json"))) {
            assertThat(mode(file)).as(file.toString()).isEqualTo("rw-------");
        }
    }

    /** A job of the namespace plants something at {@code planted}; returns once it is there and the job has ended. */
    private void plantAndAwait(String namespace, String name, String entryPoint, Path planted) {
        HttpResponse<String> submitted = submit(namespace, name, 1, entryPoint);
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
        await().atMost(SlurmJobsApiTest.RUN).until(() -> Files.exists(planted, LinkOption.NOFOLLOW_LINKS)
                && !Files.isDirectory(planted, LinkOption.NOFOLLOW_LINKS)
                && api.getJson("/jobs/" + name + "?namespace=" + namespace).at("/status/phase").asString()
                .matches("Succeeded|Failed"));
    }

    /**
     * A job's entry point that moves its namespace's directory of jobs aside and plants something in its place,
     * until {@code planted} holds: the service makes a job's directories where they are missing (it writes the
     * job's record as Slurm starts it), and on a loaded machine it may do so between the move and the plant.
     */
    private static String inPlaceOfNamespace(String namespace, String planted, String plant) {
        return "cd \"$PADDLE_JOB_DATA/../../jobs\" && n=0; until " + planted + " || [ $n -ge 20 ]; do n=$((n + 1));"
                + " mv " + namespace + " " + namespace + ".real$n; " + plant + "; done";
    }

    /** A directory of the service's user's outside the shared directory, private, with a file and a directory in it. */
    private Path victim(String name) throws IOException {
        Path victim = Files.createDirectories(outside.resolve("victim"));
        Files.createDirectories(victim.resolve(name).resolve("sub"));
        Files.writeString(victim.resolve(name).resolve("top"), "top");
        Files.writeString(victim.resolve(name).resolve("sub/data"), "data");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rwx------"));
        return victim;
    }

    private static void assertUntouched(Path victim, String name) throws IOException {
        try (Stream<Path> left = Files.list(victim)) {
            assertThat(left.map(path -> path.getFileName().toString())).containsExactly(name);
        }
        try (Stream<Path> left = Files.list(victim.resolve(name))) {
            assertThat(left.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder("top", "sub");
        }
        assertThat(victim.resolve(name).resolve("sub/data")).hasContent("data");
    }

    private HttpResponse<String> submit(String namespace, String name, int trainers, String entryPoint) {
        ObjectNode request = JSON.createObjectNode().put("name", name).put("mode", "collective").put("trainers", trainers)
                .put("memory", "256Mi").put("entry_point", entryPoint);
        return api.send("POST", "/jobs?namespace=" + namespace, JSON.writeValueAsString(request));
    }

    private HttpResponse<String> submitRestarting(String namespace, String name, String entryPoint) {
        ObjectNode request = JSON.createObjectNode().put("name", name).put("mode", "collective").put("trainers", 1)
                .put("memory", "256Mi").put("entry_point", entryPoint).put("max_restarts", 1);
        return api.send("POST", "/jobs?namespace=" + namespace, JSON.writeValueAsString(request));
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}

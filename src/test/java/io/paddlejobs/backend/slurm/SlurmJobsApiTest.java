package io.paddlejobs.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The jobs API over real HTTP with {@code paddlejobs.backend=slurm}, on a real Slurm cluster:
 * the same request, status URL and environment as on the other backends, and what is Slurm's own
 * (waiting for resources, a time limit). The port's promises themselves are
 * {@link SlurmJobBackendContractTest}'s.
 */
public class SlurmJobsApiTest extends SlurmServiceTest {

    static final Duration RUN = Duration.ofSeconds(90);
    /** A pserver and three trainers of four CPUs each: they take all four nodes. */
    static String blocker(String name) {
        return """
                {"name": "%s", "entry_point": "sleep 300", "num_cpus": 12, "trainer_cpu": 4,
                 "pservers": 1, "pserver_cpu": 4, "memory": "2Gi"}""".formatted(name);
    }
    /** A client's patience with a cancel; a pending job's took minutes before. */
    private static final Duration CANCEL_ANSWER = Duration.ofSeconds(20);
    static final Path TRAIN_PY = Path.of(System.getProperty("project.basedir", "."), "examples/fit-a-line/train.py")
            .toAbsolutePath();
    private static final Pattern LOSS = Pattern.compile("pass (\\d+) loss ([0-9.eE+-]+)");

    @TempDir
    static Path sharedDir;
    /** The operator's secret store ({@code paddlejobs.secrets.store}): mode none, so the Slurm backend takes secrets. */
    @TempDir
    static Path secretStore;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SlurmCluster.serve(registry, sharedDir);
        registry.add("paddlejobs.slurm.time-limit", () -> "5m");
        // The test nodes are small: per-GPU floors meant for real GPU machines would not fit on them.
        registry.add("paddlejobs.defaults.trainer-cpu-per-gpu", () -> "0");
        registry.add("paddlejobs.defaults.trainer-mem-per-gpu", () -> "0");
        // The test cluster's second partition, for this namespace's requests that name it.
        registry.add("paddlejobs.slurm.partitions.default", () -> "second");
        registry.add("paddlejobs.restarts.backoff", () -> "1s");
        registry.add("paddlejobs.secrets.store", secretStore::toString);
    }

    @Test
    void aJobRunsInThePartitionItNamesWhereTheOperatorAllowsItAndAnotherIsRefusedNamingTheField() {
        HttpResponse<String> refused = api.send("POST", "/jobs",
                "{\"name\": \"elsewhere\", \"entry_point\": \"true\", \"partition\": \"debug2\"}");
        JsonNode problem = ServiceClient.parse(refused.body());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(problem.at("/errors/0/field").asString()).isEqualTo("partition");
        assertThat(problem.at("/errors/0/message").asString()).contains("paddlejobs.slurm.partitions", "second");
        assertThat(slurmStates("elsewhere")).as("nothing submitted").isEmpty();

        String name = "in-second-" + getClass().getSimpleName().toLowerCase(); // this client's job alone
        api.submit(job(name, "true").replace("}", ", \"partition\": \"second\"}"));

        String partitions = SlurmCluster.current().command("squeue", "-h", "-t", "all", "-n",
                "paddlejobs.default." + name, "-o", "%P");
        assertThat(partitions.lines().map(String::strip).filter(line -> !line.isEmpty()).toList())
                .as("each component's partition").isNotEmpty().containsOnly("second");
        api.awaitPhase(name, "Succeeded", RUN);
    }

    @Test
    void fitALineExampleSucceedsWithTheSameRequestAndStatusUrlAsLocally() {
        String request = """
                {"name": "fit-a-line", "entry_point": "python3 -u %s", "num_cpus": 3, "pservers": 2, "memory": "1Gi"}
                """.formatted(TRAIN_PY);

        String statusUrl = api.submit(request);

        assertThat(statusUrl)
                .isEqualTo(api.baseUrl() + "/jobs/fit-a-line/status?namespace=default");
        JsonNode done = api.awaitPhase("fit-a-line", "Succeeded", RUN);
        assertThat(done.path("trainers").path("succeeded").asInt()).isEqualTo(3);
        for (int trainer = 0; trainer < 3; trainer++) {
            List<Double> losses = losses(api.logs("fit-a-line", "role=trainer&index=" + trainer));
            assertThat(losses).as("trainer %d reports a loss per pass", trainer).hasSizeGreaterThan(2);
            assertThat(losses.get(losses.size() - 1)).isLessThan(losses.get(0) / 2);
        }
        assertThat(done.path("replicas").get(2).path("started_at").asString()).as("trainer-0 started").isNotEmpty();
        assertThat(done.path("replicas").get(2).path("finished_at").asString()).as("trainer-0 finished").isNotEmpty();
        JsonNode job = api.getJson("/jobs/fit-a-line");
        assertThat(job.toString()).as("placed: no host token left in the plan").doesNotContain("@pserver-");
    }

    @Test
    void aDryRunShowsTheBatchScriptWithOneComponentPerRoleAndStartsNothing() {
        HttpResponse<String> response = api.send("POST", "/jobs?dry_run=true", job("dry", "true"));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String script = ServiceClient.parse(response.body()).path("manifests").get(0).path("script").asString();
        assertThat(script).contains("#SBATCH --job-name=paddlejobs.default.dry\n")
                .contains("#SBATCH --ntasks=1 --cpus-per-task=1 --mem-per-cpu=1024\n#SBATCH hetjob\n#SBATCH --ntasks=1");
        assertThat(slurmStates("dry")).isEmpty();
    }

    @Test
    void anImageWithoutContainersIsAWarningThatTheNodesOwnSoftwareRuns() {
        HttpResponse<String> response = api.send("POST", "/jobs?dry_run=true",
                job("imaged", "true").replace("}", ", \"image\": \"paddlepaddle/paddle:2.6.1\"}"));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode view = ServiceClient.parse(response.body());
        assertThat(view.path("warnings").toString()).contains("software installed on its nodes");
        assertThat(view.path("manifests").get(0).path("script").asString()).doesNotContain("_IMAGE=");
    }

    @Test
    void sameRequestAgainIsTheSameJobAndADifferentOneUnderItsNameIsAConflict() {
        String request = job("again", "true");
        assertThat(api.send("POST", "/jobs", request).statusCode()).isEqualTo(201);

        assertThat(api.send("POST", "/jobs", request).statusCode()).isEqualTo(200);
        HttpResponse<String> other = api.send("POST", "/jobs", job("again", "exit 0"));
        assertThat(other.statusCode()).as(other.body()).isEqualTo(409);
        api.awaitPhase("again", "Succeeded", RUN);
    }

    @Test
    void everyReplicaGetsExactlyThePlannedEnvironmentThatTheJobShows() {
        api.submit("""
                {"name": "env-dump", "entry_point": "env | sort; touch $PADDLE_JOB_CHECKPOINT_DIR/printed-$TRAINING_ROLE-$PADDLE_PORT; %s",
                 "num_cpus": 2, "pservers": 2, "env": {"GREETING": "hello world"}}""".formatted(
                // Pservers are stopped once the trainers are done: trainers wait until both have printed.
                "[ $TRAINING_ROLE = PSERVER ] || until [ $(ls $PADDLE_JOB_CHECKPOINT_DIR/printed-PSERVER-* 2>/dev/null | wc -l)"
                        + " -ge 2 ]; do sleep 0.1; done"));
        api.awaitPhase("env-dump", "Succeeded", RUN);

        JsonNode plan = api.getJson("/jobs/env-dump").path("plan");
        for (JsonNode replica : plan.path("replicas")) {
            String id = Replica.idOf(Role.fromLabel(replica.path("role").asString()), replica.path("index").asInt());
            Map<String, String> planned = new TreeMap<>();
            replica.path("env").properties().forEach(e -> planned.put(e.getKey(), e.getValue().asString()));
            Map<String, String> seen = new TreeMap<>();
            for (String line : api.logs("env-dump", "role=" + id.replace("-", "&index=")).split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0 && planned.containsKey(line.substring(0, eq))) {
                    seen.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            assertThat(seen).as("the environment %s ran with", id).isEqualTo(planned);
            assertThat(planned.get("POD_IP")).isEqualTo(replica.path("host").asString()).isEqualTo("127.0.0.1");
        }
        JsonNode pserver1 = plan.path("replicas").get(1);
        assertThat(pserver1.path("env").path("PADDLE_PSERVERS_IP_PORT_LIST").asString())
                .as("two pservers on one address get their own ports").matches("127\\.0\\.0\\.1:(\\d+),127\\.0\\.0\\.1:(?!\\1)\\d+");
    }

    @Test
    void eachGpuTrainerIsATaskWithItsOwnGpu() {
        // The test cluster's nodes count two GPUs each (stand-in device files, no CUDA).
        api.submit("""
                {"name": "gpus", "entry_point": "echo gpus=${CUDA_VISIBLE_DEVICES:-none}; touch $PADDLE_JOB_CHECKPOINT_DIR/printed-$TRAINING_ROLE; %s", "num_gpus": 2,
                 "pservers": 1, "memory": "512Mi"}""".formatted(
                "[ $TRAINING_ROLE = PSERVER ] || until [ -e $PADDLE_JOB_CHECKPOINT_DIR/printed-PSERVER ]; do sleep 0.1; done"));

        api.awaitPhase("gpus", "Succeeded", RUN);

        for (int trainer = 0; trainer < 2; trainer++) {
            assertThat(api.logs("gpus", "role=trainer&index=" + trainer)).matches("gpus=\\d\n");
        }
        assertThat(api.logs("gpus", "role=pserver&index=0")).isEqualTo("gpus=none\n");
    }

    @Test
    void theStatusStreamFollowsAJobThatSlurmRunsUntilItEnds() {
        api.submit(job("streamed", "sleep 1"));

        HttpResponse<String> stream = api.events("/jobs/streamed/status");

        assertThat(stream.statusCode()).isEqualTo(200);
        List<String> lines = stream.body().lines().toList();
        List<String> events = lines.stream().filter(line -> line.startsWith("event:")).toList();
        assertThat(events).first().isEqualTo("event:status");
        assertThat(events).as("the stream ends once the job has").last().isEqualTo("event:end");
        List<String> phases = lines.stream().filter(line -> line.startsWith("data:{\"") && line.contains("\"phase\""))
                .map(line -> ServiceClient.parse(line.substring("data:".length())).path("phase").asString()).toList();
        assertThat(phases).as("Slurm is polled: its changes still reach the stream").contains("Running").endsWith("Succeeded");
    }

    @Test
    void deleteStopsTheJobAndRemovesItAndItsFiles() {
        api.submit(job("to-delete", "sleep 300"));
        api.awaitPhase("to-delete", "Running", RUN);

        assertThat(api.send("DELETE", "/jobs/to-delete", null).statusCode()).isIn(200, 204);

        assertThat(api.send("GET", "/jobs/to-delete", null).statusCode()).isEqualTo(404);
        assertThat(sharedDir.resolve("jobs/default/to-delete/job.json")).as("a restart does not read it back")
                .doesNotExist();
        // Cancelled in Slurm before the answer; the rest of its files go once Slurm runs nothing of it, as the poller sees.
        await().atMost(RUN).until(() -> slurmStates("to-delete").stream().allMatch(state -> state.equals("CANCELLED")));
        await().atMost(RUN).until(() -> !Files.exists(sharedDir.resolve("jobs/default/to-delete")));
    }

    @Test
    void aJobCancelledWhileItWaitsInSlurmsQueueIsCancelledThereAtOnceAndNeverStarts() {
        // Slurm is shared by the classes of both clients, and keeps their ended jobs a while: names of this class's own.
        String blocker = "holds-all-" + client();
        String queued = "queued-" + client();
        api.submit(blocker(blocker));
        api.awaitPhase(blocker, "Running", RUN);
        api.submit(job(queued, "echo started"));
        await().atMost(RUN).untilAsserted(() -> assertThat(slurmStates(queued)).containsOnly("PENDING"));

        // Before, scancel --signal=TERM went first, and scancel retries that for a pending job for minutes.
        HttpResponse<String> cancelled = api.send(HttpRequest.newBuilder(URI.create(api.baseUrl()
                + "/jobs/" + queued + "/cancel")).POST(HttpRequest.BodyPublishers.noBody()).timeout(CANCEL_ANSWER));

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(ServiceClient.parse(cancelled.body()).at("/status/phase").asString()).isEqualTo("Cancelled");
        assertThat(slurmStates(queued)).as("its place in Slurm's queue given back at once").containsOnly("CANCELLED");
        api.send("POST", "/jobs/" + blocker + "/cancel", null);
        api.awaitPhase(blocker, "Cancelled", RUN);
        assertThat(slurmStates(queued)).as("it never started, not even once the nodes were free")
                .containsOnly("CANCELLED");
        assertThat(api.status(queued).path("started_at").isMissingNode()).isTrue();
        assertThat(api.logs(queued, "role=trainer&index=0")).doesNotContain("started");
    }

    /** Which Slurm client this class's service uses. */
    String client() {
        return "cli";
    }

    @Test
    void aFinishedJobIsDeletedToo() {
        api.submit(job("done-then-deleted", "true"));
        api.awaitPhase("done-then-deleted", "Succeeded", RUN);

        assertThat(api.send("DELETE", "/jobs/done-then-deleted", null).statusCode()).isIn(200, 204);

        assertThat(api.send("GET", "/jobs/done-then-deleted", null).statusCode()).isEqualTo(404);
        assertThat(sharedDir.resolve("jobs/default/done-then-deleted")).doesNotExist();
    }

    @Test
    void logsServeTheTailAndFollowUntilTheReplicaEnds() {
        api.submit(job("logs", "for i in 1 2 3 4 5; do echo line $i; sleep 0.3; done"));

        String followed = api.logs("logs", "role=trainer&index=0&follow=true");

        assertThat(followed).isEqualTo("line 1\nline 2\nline 3\nline 4\nline 5\n");
        api.awaitPhase("logs", "Succeeded", RUN);
        assertThat(api.logs("logs", "role=trainer&index=0&tail=2")).isEqualTo("line 4\nline 5\n");
    }

    @Test
    void aRestartKeepsTheCrashOfAttempt0ReadableApartFromAttempt1sLog() {
        // A name of this class's own: the Slurm jobs of the class before it (the other client) are still listed.
        String name = "crash-once-" + client();
        api.submit("""
                {"name": "%s", "num_cpus": 1, "memory": "256Mi", "max_restarts": 1, "entry_point":
                 "echo attempt $PADDLE_JOB_RESTART_COUNT runs; [ $PADDLE_JOB_RESTART_COUNT = 0 ] && [ $TRAINING_ROLE = TRAINER ] && exec python3 -c 'raise RuntimeError(1234)'; echo done"}""".formatted(name));

        JsonNode done = api.awaitPhase(name, "Succeeded", RUN);

        assertThat(done.path("restarts").asInt()).isEqualTo(1);
        String crash = api.logs(name, "role=trainer&index=0&attempt=0");
        assertThat(crash).startsWith("attempt 0 runs\nTraceback (most recent call last):")
                .endsWith("RuntimeError: 1234\n").doesNotContain("attempt 1");
        assertThat(api.logs(name, "role=trainer&index=0")).isEqualTo("attempt 1 runs\ndone\n")
                .isEqualTo(api.logs(name, "role=trainer&index=0&attempt=1"));
        assertThat(done.path("attempts").get(0).path("message").asString()).contains("RuntimeError: 1234")
                .endsWith("See its log: role=trainer&index=0&attempt=0");
        HttpResponse<String> past = api.get("/jobs/" + name + "/logs?role=trainer&index=0&attempt=2");
        assertThat(past.statusCode()).isEqualTo(400);
        assertThat(past.body()).contains("\"attempt\"", "must be at most 1");
    }

    @Test
    void aJobWaitingForResourcesShowsTheReason() {
        api.submit(blocker("blocker"));
        api.awaitPhase("blocker", "Running", RUN);

        api.submit(job("waiting", "true"));

        await().atMost(RUN).untilAsserted(() -> assertThat(api.status("waiting").path("message").asString())
                .startsWith("waiting for resources").contains("Slurm: Resources"));
        assertThat(api.status("waiting").path("phase").asString()).isEqualTo("Pending");
        api.send("POST", "/jobs/blocker/cancel", null);
        api.awaitPhase("waiting", "Succeeded", RUN);
    }

    @Test
    void theConfiguredTimeLimitIsTheJobsAndRunningIntoItFailsTheJobSayingSo() {
        api.submit(job("too-long", "sleep 600"));
        api.awaitPhase("too-long", "Running", RUN);
        List<String> ids = SlurmCluster.current().command("squeue", "-h", "-n", "paddlejobs.default.too-long", "-o", "%A")
                .lines().map(String::strip).toList();
        for (String id : ids) {
            assertThat(SlurmCluster.current().command("scontrol", "-o", "show", "job", id)).contains("TimeLimit=00:05:00");
        }

        // Slurm counts limits in minutes and checks them every 30 s: a limit the job is past already trips soonest.
        for (String id : ids) {
            SlurmCluster.current().command("scontrol", "update", "JobId=" + id, "TimeLimit=0");
        }

        JsonNode status = api.awaitPhase("too-long", "Failed", RUN);
        assertThat(status.path("reason").asString()).isEqualTo("TimeLimit");
        assertThat(status.path("message").asString()).contains("time limit");
        assertThat(replicaStates(status)).containsOnly("Stopped");
    }

    /**
     * Issue 48 on Slurm, in mode none: a secret of the operator's store reaches the replica's environment (it
     * prints the value's hash), and the value is nowhere the service answers (a dry run, the job, its status,
     * actions and metrics, the list, a rerun's dry run, the log served), on no command line on the node while
     * the replica runs, and in the job's files only in the service's private copy and the replica's own log.
     */
    @Test
    void aSecretReachesTheReplicasEnvironmentAndNothingTheServiceAnswers() throws Exception {
        String value = "s3cret-" + UUID.randomUUID();
        String name = "secret-" + getClass().getSimpleName().toLowerCase(); // this client's job alone
        Path file = Files.createDirectories(secretStore.resolve("default/s3")).resolve("key");
        Files.writeString(file, value + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Path release = secretStore.resolve("release");
        String request = """
                {"name": "%s", "mode": "collective", "trainers": 1, "entry_point": "printf %%s \\"$S3_KEY\\" | sha256sum; echo \\"key=$S3_KEY\\"; \
                until [ -e %s ]; do sleep 0.1; done", "memory": "256Mi",
                 "env_from_secrets": {"S3_KEY": {"secret": "s3", "key": "key"}}}""".formatted(name, release);
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(value.getBytes(StandardCharsets.UTF_8)));

        HttpResponse<String> dryRun = api.send("POST", "/jobs?dry_run=true", request);
        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
        assertThat(dryRun.body()).contains("S3_KEY").doesNotContain(value);
        api.submit(request);
        await().atMost(RUN).until(() -> api.logs(name, "role=trainer&index=0").contains("key="));
        assertThat(ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                .filter(line -> line.contains(value))).as("command lines on the node that hold the value").isEmpty();
        Files.writeString(release, "");
        api.awaitPhase(name, "Succeeded", RUN);

        assertThat(api.logs(name, "role=trainer&index=0")).as("the replica saw the value: its hash is in the log")
                .contains(hash).contains("key=[secret]").doesNotContain(value);
        for (String path : List.of("/jobs/" + name, "/jobs/" + name + "/status", "/jobs/" + name + "/actions",
                "/jobs/" + name + "/metrics", "/jobs?namespace=default")) {
            assertThat(api.send("GET", path, null).body()).as(path).doesNotContain(value);
        }
        assertThat(api.send("POST", "/jobs/" + name + "/rerun?dry_run=true", "{}").body()).doesNotContain(value);
        Map<Path, Boolean> holding = filesHolding(value);
        Path job = Path.of("jobs/default", name);
        assertThat(holding).as("the job's files that hold the value, and whether users other than the service's could"
                + " read them").containsOnlyKeys(job.resolve("env/secrets"), job.resolve("logs/trainer-0.log"))
                .doesNotContainValue(true);
    }

    /**
     * The files under the shared directory that hold {@code value}, and whether users other than the service's
     * could read each. Other tests' jobs may remove their files meanwhile: what is gone is passed over.
     */
    private static Map<Path, Boolean> filesHolding(String value) throws IOException {
        Map<Path, Boolean> holding = new TreeMap<>();
        Files.walkFileTree(sharedDir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                try {
                    if (attributes.isRegularFile() && Files.readString(file, StandardCharsets.ISO_8859_1).contains(value)) {
                        holding.put(sharedDir.relativize(file), othersCanRead(file, sharedDir));
                    }
                } catch (NoSuchFileException gone) {
                    // another job's, removed as it was read
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE; // removed before it was reached
            }
        });
        return holding;
    }

    /**
     * Whether users other than the file's owner could read it: by its mode, and through each directory the
     * service made on the way to it (below {@code top}, which is the operator's).
     */
    private static boolean othersCanRead(Path file, Path top) throws IOException {
        var mode = Files.getPosixFilePermissions(file);
        boolean readable = mode.contains(PosixFilePermission.GROUP_READ) || mode.contains(PosixFilePermission.OTHERS_READ);
        for (Path dir = file.getParent(); readable && !dir.equals(top); dir = dir.getParent()) {
            var searchable = Files.getPosixFilePermissions(dir);
            readable = searchable.contains(PosixFilePermission.GROUP_EXECUTE)
                    || searchable.contains(PosixFilePermission.OTHERS_EXECUTE);
        }
        return readable;
    }

    /** One pserver and one trainer running {@code entryPoint}. */
    static String job(String name, String entryPoint) {
        return """
                {"name": "%s", "entry_point": "%s", "num_cpus": 1, "pservers": 1, "memory": "256Mi"}""".formatted(name,
                entryPoint);
    }

    /** Slurm's own states of the job's components, asked of Slurm directly. */
    public static List<String> slurmStates(String job) {
        return slurmStates("default", job);
    }

    /** The state of every Slurm job the job has had (one per attempt) that Slurm still remembers. */
    public static List<String> slurmStates(String namespace, String job) {
        String out = SlurmCluster.current().command("squeue", "-h", "-t", "all", "-n",
                "paddlejobs." + namespace + "." + job, "-o", "%T");
        return out.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }

    static List<String> replicaStates(JsonNode status) {
        List<String> states = new ArrayList<>();
        status.path("replicas").forEach(replica -> states.add(replica.path("state").asString()));
        return states;
    }

    private static List<Double> losses(String log) {
        Matcher m = LOSS.matcher(log);
        List<Double> losses = new ArrayList<>();
        while (m.find()) {
            losses.add(Double.parseDouble(m.group(2)));
        }
        return losses;
    }
}

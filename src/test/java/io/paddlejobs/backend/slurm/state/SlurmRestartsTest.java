package io.paddlejobs.backend.slurm.state;

import io.paddlejobs.backend.slurm.SlurmCluster;
import io.paddlejobs.backend.slurm.SlurmJobBackend;
import io.paddlejobs.backend.slurm.SlurmJobBackendContractTest;
import io.paddlejobs.backend.slurm.SlurmJobsApiTest;
import io.paddlejobs.backend.slurm.script.JobFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/request.md, "Surviving failures", on the Slurm backend and the real test cluster: each attempt a
 * batch job of its own. Each replica appends its attempt and node to {@code starts} in its checkpoint
 * directory (the same for every attempt), which is how a test counts attempts.
 */
@Tag("slurm")
@ExtendWith(SlurmCluster.class)
class SlurmRestartsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(120);
    private static final RestartBackoff SHORT = new RestartBackoff(Duration.ofMillis(500), Duration.ofSeconds(1));
    /** Long enough that a loaded machine sees the backoff and acts before it ends. */
    private static final RestartBackoff LONG = new RestartBackoff(Duration.ofSeconds(8), Duration.ofSeconds(8));
    private static final String NAMESPACE = "restarts";
    private static final String COUNT_START =
            "echo \"$PADDLE_JOB_RESTART_COUNT $SLURMD_NODENAME\" >> \"$PADDLE_JOB_CHECKPOINT_DIR/starts\"; ";

    @TempDir
    Path sharedDir;

    private final JobPlanner planner = new JobPlanner(Settings.planningPolicy());
    /** Slurm's names of the jobs this test submitted. */
    private final List<String> submitted = new ArrayList<>();

    @Test
    void aTrainerThatFailsOnceIsRestartedAsANewBatchJobAndResumesFromItsCheckpoint() throws IOException {
        try (SlurmJobBackend backend = backend(SHORT)) {
            submit(backend, "flaky", "max_restarts=3", COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then echo step-7 > \"$PADDLE_JOB_CHECKPOINT_DIR/ckpt\"; exit 3; fi;"
                    + " echo resumed-from-$(cat \"$PADDLE_JOB_CHECKPOINT_DIR/ckpt\")");

            Job done = awaitPhase(backend, "flaky", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(done.status().attempts()).extracting(Attempt::number, Attempt::reason)
                    .containsExactly(tuple(0, "TrainerFailed"), tuple(1, "Completed"));
            assertThat(done.status().attempts().get(0).message()).contains("trainer-0 exited with code 3");
            assertThat(done.status().attempts()).allSatisfy(a -> assertThat(a.finishedAt()).isNotNull());
            assertThat(log(backend, "flaky")).contains("resumed-from-step-7");
            assertThat(attempts(starts("flaky"))).containsExactly("0", "1");
            // Failure to the next attempt's replica running, with a 500 ms backoff.
            Path firstExit = files("flaky").stateDir(0).resolve("trainer-0.exit");
            Path secondStart = files("flaky").stateDir(1).resolve("trainer-0.started");
            long millis = Files.getLastModifiedTime(secondStart).toMillis() - Files.getLastModifiedTime(firstExit).toMillis();
            System.out.printf("[slurm-restarts] a failed replica to the next attempt's replica running: %d ms"
                    + " (backoff %d ms, poll interval 250 ms)%n", millis, SHORT.base().toMillis());
        }
    }

    @Test
    void aTrainerThatAlwaysFailsFailsAfterExactlyMaxRestartsSayingSo() throws IOException {
        try (SlurmJobBackend backend = backend(SHORT)) {
            submit(backend, "broken", "max_restarts=2", COUNT_START + "exit 1");

            Job failed = awaitPhase(backend, "broken", JobPhase.FAILED);

            assertThat(failed.status().restarts()).isEqualTo(2);
            assertThat(failed.status().reason()).isEqualTo("TrainerFailed");
            assertThat(failed.status().message()).startsWith("failed after 2 restarts: trainer-0 exited with code 1");
            assertThat(failed.status().attempts()).hasSize(3).allSatisfy(a -> assertThat(a.finishedAt()).isNotNull());
            assertThat(attempts(starts("broken"))).containsExactly("0", "1", "2");
        }
    }

    @Test
    void restartOnInfrastructureDoesNotRetryAnExitOfTheProgramItself() throws IOException {
        try (SlurmJobBackend backend = backend(SHORT)) {
            submit(backend, "own-exit", "max_restarts=2 restart_on=infrastructure",
                    COUNT_START + "echo 'RuntimeError: out of patience' >&2; exit 1");

            Job failed = awaitPhase(backend, "own-exit", JobPhase.FAILED);

            assertThat(failed.status().restarts()).isZero();
            // Its last words, from its log on the shared directory, say why.
            assertThat(failed.status().message()).startsWith("trainer-0 exited with code 1: \"RuntimeError: out of patience\"");
            assertThat(attempts(starts("own-exit"))).containsExactly("0");
        }
    }

    @Test
    void restartOnInfrastructureRetriesAReplicaKilledWithSignal9() throws Exception {
        try (SlurmJobBackend backend = backend(SHORT)) {
            submit(backend, "killed", "max_restarts=2 restart_on=infrastructure", COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then exec sleep 3401; fi");
            await().atMost(DEADLINE).until(() -> pidOf("sleep 3401") > 0);

            new ProcessBuilder("kill", "-9", Long.toString(pidOf("sleep 3401"))).start().waitFor();
            Job done = awaitPhase(backend, "killed", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(done.status().attempts().get(0).message()).contains("killed by signal 9");
            assertThat(attempts(starts("killed"))).containsExactly("0", "1");
        }
    }

    @Test
    void aCancelDuringTheBackoffEndsTheJobCancelledAndNoAttemptFollows() throws IOException {
        try (SlurmJobBackend backend = backend(LONG)) {
            submit(backend, "waiting", "max_restarts=3", COUNT_START + "exit 1");
            await().atMost(DEADLINE).until(() -> "Restarting".equals(job(backend, "waiting").status().reason()));
            assertThat(job(backend, "waiting").status().phase()).isEqualTo(JobPhase.RUNNING);
            assertThat(job(backend, "waiting").status().message()).contains("restart 1 of 3 in 8 s");

            backend.cancel(key("waiting"));

            assertThat(job(backend, "waiting").status().phase()).isEqualTo(JobPhase.CANCELLED);
            // Past the end of the backoff, still only the first attempt ran.
            await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(20))
                    .until(() -> starts("waiting").size() == 1);
            assertThat(job(backend, "waiting").status().restarts()).isEqualTo(1);
            assertThat(SlurmJobsApiTest.slurmStates(NAMESPACE, "waiting")).hasSize(1);
        }
    }

    @Test
    void aServiceKilledDuringTheBackoffSubmitsTheNextAttemptOnceWithTheCountItHad() throws IOException {
        try (SlurmJobBackend before = backend(LONG)) {
            submit(before, "survivor", "max_restarts=3", COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then exit 1; fi");
            await().atMost(DEADLINE).until(() -> "Restarting".equals(job(before, "survivor").status().reason()));
        } // what a kill -9 leaves: closing the backend only stops its threads, the record stays as the backoff wrote it

        try (SlurmJobBackend after = backend(SHORT)) {
            // Read back as the backoff left it, unless the backoff (due 8 s after the failure) ended while the
            // service was away on a loaded machine and the next attempt is submitted already.
            JobStatus readBack = job(after, "survivor").status();
            assertThat(readBack.reason() == null ? readBack.restarts() : readBack.reason()).as(readBack.toString())
                    .isIn("Restarting", 1);

            Job done = awaitPhase(after, "survivor", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(attempts(starts("survivor"))).containsExactly("0", "1");
            assertThat(SlurmJobsApiTest.slurmStates(NAMESPACE, "survivor")).hasSize(2);
        }
    }

    @Test
    void aKilledNodeDaemonIsAnInfrastructureFailureAndTheNextAttemptRunsOnAnotherNode() throws Exception {
        SlurmCluster.Running cluster = SlurmCluster.current();
        try (SlurmJobBackend backend = backend(SHORT)) {
            submit(backend, "node-lost", "max_restarts=1 restart_on=infrastructure", COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then exec sleep 3402; fi");
            await().atMost(DEADLINE).until(() -> starts("node-lost").size() == 1 && pidOf("sleep 3402") > 0);
            String node = starts("node-lost").get(0).split(" ")[1];
            String firstBatchJob = environment(pidOf("sleep 3402")).get("SLURM_JOB_ID");

            new ProcessBuilder("kill", "-9", Long.toString(cluster.slurmdPid(node))).inheritIO().start().waitFor();
            try {
                // SlurmdTimeout is 10 s in the test cluster; slurmctld notices within about twice that.
                Job done = awaitPhase(backend, "node-lost", JobPhase.SUCCEEDED);

                assertThat(done.status().restarts()).isEqualTo(1);
                assertThat(done.status().attempts().get(0).reason()).isEqualTo("NodeFailed");
                assertThat(starts("node-lost")).hasSize(2);
                assertThat(starts("node-lost").get(1)).startsWith("1 ").doesNotEndWith(" " + node);
            } finally {
                cluster.restartSlurmd(node);
                // The first attempt's steps were orphaned with their node daemon.
                cluster.killLeftoversOf(firstBatchJob);
            }
        }
    }

    @Test
    void aSilentTrainerIsStalledAsAWarningThatGoesWhenItPrintsAgain() throws IOException {
        Path go = sharedDir.resolve("go-on");
        try (SlurmJobBackend backend = backend(SHORT)) {
            submit(backend, "hung", "stall_timeout=2s", "echo step-1; until [ -e " + go + " ]; do sleep 0.1; done;"
                    + " echo step-2; exec sleep 3403");

            await().atMost(DEADLINE).until(() -> "Stalled".equals(job(backend, "hung").status().reason()));
            assertThat(job(backend, "hung").status().phase()).isEqualTo(JobPhase.RUNNING);
            assertThat(job(backend, "hung").status().message())
                    .startsWith("no trainer printed a line or reported a metric for 2 s (stall_timeout): trainer-0 since ");

            Files.createFile(go);
            await().atMost(DEADLINE).until(() -> job(backend, "hung").status().reason() == null);
            backend.cancel(key("hung"));
        }
    }

    @Test
    void underRestartOnStallAStalledAttemptIsStoppedAndTheJobRestarted() throws IOException {
        try (SlurmJobBackend backend = backend(SHORT)) {
            submit(backend, "hung-once", "stall_timeout=5s max_restarts=1 restart_on=stall", COUNT_START
                    + "if [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ]; then exec sleep 3404; fi; echo done");

            Job done = awaitPhase(backend, "hung-once", JobPhase.SUCCEEDED);

            assertThat(done.status().restarts()).isEqualTo(1);
            assertThat(done.status().attempts().get(0).reason()).isEqualTo("Stalled");
            assertThat(attempts(starts("hung-once"))).containsExactly("0", "1");
            await().atMost(DEADLINE).until(() -> pidOf("sleep 3404") == 0);
        }
    }

    @Test
    void aCancelSendsSigtermFirstSoThatATrainerCanWriteALastCheckpoint() throws IOException {
        try (SlurmJobBackend backend = backend(SHORT)) {
            submit(backend, "graceful", "max_restarts=1", COUNT_START
                    + "trap 'echo saved > \"$PADDLE_JOB_CHECKPOINT_DIR/last\"; exit 0' TERM; while :; do sleep 0.2; done");
            await().atMost(DEADLINE).until(() -> job(backend, "graceful").status().phase() == JobPhase.RUNNING);

            Job cancelled = backend.cancel(key("graceful")).orElseThrow();

            assertThat(cancelled.status().phase()).isEqualTo(JobPhase.CANCELLED);
            Path last = sharedDir.resolve("storage").resolve(NAMESPACE).resolve("checkpoints/graceful/last");
            await().atMost(DEADLINE).until(() -> Files.exists(last));
            await().atMost(DEADLINE).until(() -> !SlurmJobsApiTest.slurmStates(NAMESPACE, "graceful").contains("RUNNING"));
            assertThat(job(backend, "graceful").status().restarts()).as("a cancel is never retried").isZero();
        }
    }

    @Test
    void aTrainerThatIgnoresSigtermIsCancelledInSlurmOnceTheGracePeriodIsOver() {
        try (SlurmJobBackend backend = SlurmJobBackendContractTest.backend(Map.of(
                "paddlejobs.slurm.shared-dir", sharedDir.toString(),
                "paddlejobs.slurm.slurm-conf", SlurmCluster.current().slurmConf(),
                "paddlejobs.slurm.bin-dir", SlurmCluster.current().binDir(),
                "paddlejobs.slurm.poll-interval", "250ms",
                "paddlejobs.stop-grace-period", "10s"), SHORT)) {
            submit(backend, "stubborn", "", "trap '' TERM; exec sleep 3405");
            await().atMost(DEADLINE).until(() -> job(backend, "stubborn").status().phase() == JobPhase.RUNNING);

            backend.cancel(key("stubborn"));

            assertThat(SlurmJobsApiTest.slurmStates(NAMESPACE, "stubborn")).as("SIGTERM only, at first")
                    .containsExactly("RUNNING");
            // Cancelled after 10 s, then Slurm's KillWait (5 s on the test cluster) and SIGKILL.
            await().atMost(DEADLINE).until(() -> pidOf("sleep 3405") == 0);
            assertThat(job(backend, "stubborn").status().phase()).isEqualTo(JobPhase.CANCELLED);
        }
    }

    /**
     * The test's Slurm jobs have left the queue before JUnit deletes the shared directory: a job's batch script can
     * outlive the attempt the service saw end (it still writes its marks into the job's files), and on a loaded
     * machine it wrote into the folder as it was deleted.
     */
    @AfterEach
    void jobsLeftTheQueue() {
        await().atMost(DEADLINE).until(() -> SlurmCluster.current().command("squeue", "-h", "-t", "PD,CF,R,S,CG", "-o", "%j")
                .lines().map(String::strip).noneMatch(submitted::contains));
    }

    private SlurmJobBackend backend(RestartBackoff backoff) {
        return SlurmJobBackendContractTest.backend(Map.of(
                "paddlejobs.slurm.shared-dir", sharedDir.toString(),
                "paddlejobs.slurm.slurm-conf", SlurmCluster.current().slurmConf(),
                "paddlejobs.slurm.bin-dir", SlurmCluster.current().binDir(),
                "paddlejobs.slurm.poll-interval", "250ms"), backoff);
    }

    private void submit(SlurmJobBackend backend, String name, String spec, String entryPoint) {
        submitted.add("paddlejobs." + NAMESPACE + "." + name);
        var request = JobRequests.named(name, entryPoint);
        if (!spec.isEmpty()) {
            request.spec(spec);
        }
        backend.submit(planner.plan(request.memory("256Mi").trainers(1).mode(JobMode.COLLECTIVE).build(), NAMESPACE,
                backend.site()));
    }

    private static JobKey key(String name) {
        return new JobKey(NAMESPACE, name);
    }

    private static Job job(SlurmJobBackend backend, String name) {
        return backend.find(key(name)).orElseThrow(() -> new AssertionError("no job " + name));
    }

    private static Job awaitPhase(SlurmJobBackend backend, String name, JobPhase phase) {
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Job now = job(backend, name);
            if (now.status().phase() != phase && now.status().phase().isFinished()) {
                throw new IllegalStateException(name + " ended " + now.status().phase() + " instead of " + phase + ": "
                        + now.status().reason() + " " + now.status().message());
            }
            assertThat(now.status().phase()).isEqualTo(phase);
        });
        return job(backend, name);
    }

    private JobFiles files(String name) {
        return new JobFiles(sharedDir.toAbsolutePath().normalize(), new JobKey(NAMESPACE, name));
    }

    /** One line per replica start: its attempt and its node. */
    private List<String> starts(String name) throws IOException {
        Path starts = sharedDir.resolve("storage").resolve(NAMESPACE).resolve("checkpoints").resolve(name).resolve("starts");
        return Files.exists(starts) ? Files.readAllLines(starts) : List.of();
    }

    private static List<String> attempts(List<String> starts) {
        return starts.stream().map(line -> line.split(" ")[0]).toList();
    }

    private static String log(SlurmJobBackend backend, String name) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        backend.writeLogs(key(name), Role.TRAINER, 0, null, false, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A process's environment, as it was when it started. */
    private static Map<String, String> environment(long pid) throws IOException {
        Map<String, String> environment = new java.util.HashMap<>();
        for (String pair : Files.readString(Path.of("/proc", Long.toString(pid), "environ")).split("\0")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                environment.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
        return environment;
    }

    /** The process whose command line ends with {@code command} (its program by its full path); 0 when there is none. */
    private static long pidOf(String command) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(line -> line.strip().endsWith("/" + command)).orElse(false))
                .mapToLong(ProcessHandle::pid).findFirst().orElse(0);
    }
}

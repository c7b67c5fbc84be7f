package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.Role;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link JobBackend} promises in its Javadoc, run against each backend on its real
 * parts (as spring-cloud-deployer's {@code AbstractTaskLauncherIntegrationJUnit5Tests} does for its
 * launchers). A subclass gives the backend, a namespace for the test's jobs, and a way to make a
 * job of one pserver and one trainer do what an {@link Act} says on that backend.
 */
public abstract class JobBackendContract {

    /** Long enough for a slow start of a job on a busy two-core machine; a pass takes far less. */
    protected static final Duration DEADLINE = Duration.ofSeconds(90);

    /**
     * The wait before a failed job's next attempt, as each subclass wires its backend: short, but long
     * enough that a cancel made once the job shows {@code Restarting} lands well inside it.
     */
    protected static final RestartBackoff BACKOFF = new RestartBackoff(Duration.ofSeconds(3), Duration.ofSeconds(3));

    /**
     * What the replicas of a test's job do: with {@link Kind#TRAINER_EXITS} the trainer runs a
     * moment, then exits with {@code n} while the pserver runs until it is stopped; with
     * {@link Kind#KEEPS_RUNNING} every replica runs until it is stopped; with
     * {@link Kind#TRAINER_PRINTS} the trainer writes {@code line 1} to {@code line <n>}, one per
     * line, then exits 0; with {@link Kind#TRAINER_FAILS_THE_FIRST_ATTEMPT} as {@link Kind#TRAINER_EXITS}
     * with 1 in the first attempt and with 0 in later ones.
     */
    protected record Act(Kind kind, int n) {

        public enum Kind { TRAINER_EXITS, KEEPS_RUNNING, TRAINER_PRINTS, TRAINER_FAILS_THE_FIRST_ATTEMPT }

        /** The trainer exits 1 in the job's first attempt ({@code PADDLE_JOB_RESTART_COUNT} 0), and 0 in every later one. */
        static Act trainerFailsTheFirstAttempt() {
            return new Act(Kind.TRAINER_FAILS_THE_FIRST_ATTEMPT, 1);
        }

        static Act trainerExits(int code) {
            return new Act(Kind.TRAINER_EXITS, code);
        }

        static Act keepsRunning() {
            return new Act(Kind.KEEPS_RUNNING, 0);
        }

        static Act trainerPrints(int lines) {
            return new Act(Kind.TRAINER_PRINTS, lines);
        }
    }

    private final List<JobKey> submitted = new ArrayList<>();

    protected abstract JobBackend backend();

    /** The namespace of the test's jobs; no other test's jobs are in it. */
    protected abstract String namespace();

    /** A plan of one pserver and one trainer, in {@link #namespace()}, whose replicas do what {@code act} says. */
    protected abstract JobPlan plan(String name, Act act);

    /** Whether any replica of the job still runs, as the backend's own world shows it (processes, pods, Slurm steps). */
    protected abstract boolean anyReplicaRunning(JobKey key);

    /** Runs after the test's jobs are deleted: where a subclass lets go of what it holds per test. */
    protected void afterJobsDeleted() {
    }

    /**
     * Called where the test needs the backoff before the job's attempt {@code attempt} to pass. On the
     * wall clock (the default) it passes by itself, {@link #BACKOFF}. A backend on a clock the test
     * moves waits until the job shows {@link RestartDecision#RESTARTING} with {@code attempt} restarts,
     * then moves its clock past the backoff.
     */
    protected void backoffPasses(JobKey key, int attempt) {
    }

    /**
     * After a cancel during a backoff: lets that backoff pass, and says how long a next attempt, were
     * one (wrongly) started, may take to show. On the wall clock: nothing to do, the backoff and a
     * margin from now.
     */
    protected Duration cancelledBackoffPasses() {
        return BACKOFF.before(1).plusSeconds(2);
    }

    @AfterEach
    final void deleteTheTestsJobs() {
        try {
            submitted.forEach(key -> backend().delete(key));
        } finally {
            afterJobsDeleted();
        }
    }

    @Test
    void aSubmittedJobIsFoundAndListedWithItsPlan() {
        Job job = submit(plan("shown", Act.keepsRunning()));

        assertThat(job.status().phase()).isIn(JobPhase.PENDING, JobPhase.RUNNING);
        Job found = backend().find(key("shown")).orElseThrow();
        assertThat(found.plan()).isEqualTo(job.plan());
        assertThat(found.status().phase()).isIn(JobPhase.PENDING, JobPhase.RUNNING);
        assertThat(names(backend().list(namespace()))).containsExactly("shown");
    }

    @Test
    void aSecondSubmitOfTheSameKeyIsRefusedAndChangesNothing() {
        Job first = submit(plan("twice", Act.keepsRunning()));
        JobPlan other = plan("twice", Act.trainerExits(0));

        assertThatThrownBy(() -> backend().submit(other)).isInstanceOf(JobAlreadyExistsException.class);

        Job found = backend().find(key("twice")).orElseThrow();
        assertThat(found.plan()).isEqualTo(first.plan());
        assertThat(found.status().createdAt()).isEqualTo(first.status().createdAt());
        assertThat(names(backend().list(namespace()))).containsExactly("twice");
    }

    @Test
    void ofTwoConcurrentSubmitsOfOneKeyOneWinsAndTheOtherIsRefused() throws Exception {
        JobPlan plan = plan("raced", Act.keepsRunning());
        submitted.add(key("raced"));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Callable<Object> attempt = () -> {
                try {
                    return backend().submit(plan);
                } catch (JobAlreadyExistsException e) {
                    return e;
                }
            };
            List<Future<Object>> outcomes = threads.invokeAll(List.of(attempt, attempt));
            List<Object> results = new ArrayList<>();
            for (Future<Object> outcome : outcomes) {
                results.add(outcome.get());
            }
            assertThat(results).filteredOn(Job.class::isInstance).hasSize(1);
            assertThat(results).filteredOn(JobAlreadyExistsException.class::isInstance).hasSize(1);
        } finally {
            threads.shutdownNow();
        }
        assertThat(names(backend().list(namespace()))).containsExactly("raced");
    }

    @Test
    void aJobWhoseTrainersExitZeroSucceedsAndItsPserversAreStopped() {
        submit(plan("fine", Act.trainerExits(0)));

        Job done = awaitPhase("fine", JobPhase.SUCCEEDED);

        assertThat(done.status().trainers().succeeded()).isEqualTo(1);
        assertThat(done.status().finishedAt()).isNotNull();
        assertThat(done.status().reason()).isEqualTo(JobStatus.COMPLETED);
        assertThat(done.status().message()).isEqualTo(JobStatus.COMPLETED_MESSAGE);
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(job("fine").status().replicas())
                .filteredOn(r -> r.role() == Role.PSERVER).isNotEmpty()
                .allSatisfy(r -> assertThat(r.state()).isEqualTo(ReplicaState.STOPPED)));
        await().atMost(DEADLINE).until(() -> !anyReplicaRunning(key("fine")));
        assertThat(job("fine").status().phase()).isEqualTo(JobPhase.SUCCEEDED);
        // Each backend's counts say so too, and add up to the role's desired count.
        RoleCounts pservers = job("fine").status().pservers();
        assertThat(pservers.stopped()).isEqualTo(pservers.desired()).isPositive();
    }

    /** A run again (POST /jobs/{name}/rerun) starts from it, so it must outlast the job's end. */
    @Test
    void aFinishedJobStillGivesTheRequestItWasSubmittedWith() {
        JobPlan given = plan("remembered", Act.trainerExits(0));
        submit(given);

        Job done = awaitPhase("remembered", JobPhase.SUCCEEDED);

        assertThat(done.plan().spec()).isEqualTo(given.spec());
        assertThat(backend().list(namespace())).singleElement()
                .satisfies(listed -> assertThat(listed.plan().spec()).isEqualTo(given.spec()));
    }

    @Test
    void aReplicaExitingNonZeroFailsTheJobWithAReasonNamingTheReplicaAndStopsTheRest() {
        submit(plan("broken", Act.trainerExits(3)));

        Job failed = awaitPhase("broken", JobPhase.FAILED);

        assertThat(failed.status().message()).contains("trainer-0").containsPattern("\\b3\\b");
        assertThat(failed.status().replicas()).filteredOn(r -> r.id().equals("trainer-0")).singleElement()
                .satisfies(r -> assertThat(r.exitCode()).isEqualTo(3));
        await().atMost(DEADLINE).until(() -> !anyReplicaRunning(key("broken")));
        assertThat(job("broken").status().phase()).isEqualTo(JobPhase.FAILED);
    }

    @Test
    void cancelStopsEveryReplicaAndKeepsTheJobAsCancelled() {
        submit(plan("stopped", Act.keepsRunning()));
        awaitPhase("stopped", JobPhase.RUNNING);

        Job cancelled = backend().cancel(key("stopped")).orElseThrow();

        assertThat(cancelled.status().phase()).isEqualTo(JobPhase.CANCELLED);
        await().atMost(DEADLINE).until(() -> !anyReplicaRunning(key("stopped")));
        assertThat(job("stopped").status().phase()).isEqualTo(JobPhase.CANCELLED);
        assertThat(names(backend().list(namespace()))).containsExactly("stopped");
    }

    @Test
    void cancelOfAFinishedJobReturnsItUnchanged() {
        submit(plan("over", Act.trainerExits(0)));
        Job done = awaitPhase("over", JobPhase.SUCCEEDED);

        Job returned = backend().cancel(key("over")).orElseThrow();

        assertThat(returned.status().phase()).isEqualTo(JobPhase.SUCCEEDED);
        assertThat(returned.status().finishedAt()).isEqualTo(done.status().finishedAt());
        assertThat(job("over").status().phase()).isEqualTo(JobPhase.SUCCEEDED);
    }

    @Test
    void deleteStopsTheJobAndRemovesIt() {
        submit(plan("gone", Act.keepsRunning()));
        submit(plan("kept", Act.trainerExits(0)));
        awaitPhase("gone", JobPhase.RUNNING);

        assertThat(backend().delete(key("gone"))).isTrue();

        await().atMost(DEADLINE).until(() -> backend().find(key("gone")).isEmpty());
        assertThat(names(backend().list(namespace()))).containsExactly("kept");
        await().atMost(DEADLINE).until(() -> !anyReplicaRunning(key("gone")));
    }

    @Test
    void aSubmitAPhaseACancelAndADeleteEachReachAnOnChangeListener() {
        JobKey key = key("told");
        List<Optional<JobPhase>> seen = new CopyOnWriteArrayList<>(); // what find showed at each call for the key
        backend().onChange(changed -> {
            if (changed.equals(key)) {
                seen.add(backend().find(key).map(job -> job.status().phase()));
            }
        });

        submit(plan("told", Act.keepsRunning()));
        await().atMost(DEADLINE).until(() -> seen.stream().anyMatch(Optional::isPresent));
        awaitPhase("told", JobPhase.RUNNING);
        await().atMost(DEADLINE).until(() -> seen.contains(Optional.of(JobPhase.RUNNING)));
        backend().cancel(key);
        await().atMost(DEADLINE).until(() -> seen.contains(Optional.of(JobPhase.CANCELLED)));
        backend().delete(key);
        await().atMost(DEADLINE).until(() -> seen.get(seen.size() - 1).isEmpty());
    }

    @Test
    void aListenerAddedAfterASubmitIsToldOfTheJobThere() {
        submit(plan("there", Act.keepsRunning()));
        List<JobKey> told = new CopyOnWriteArrayList<>();

        backend().onChange(told::add);

        await().atMost(DEADLINE).until(() -> told.contains(key("there")));
    }

    @Test
    void deleteOfAnUnknownKeyIsFalse() {
        assertThat(backend().delete(key("never-submitted"))).isFalse();
    }

    @Test
    protected void logsOfAReplicaAreItsLastLines() throws IOException {
        submit(plan("talks", Act.trainerPrints(5)));
        awaitPhase("talks", JobPhase.SUCCEEDED);

        var out = new ByteArrayOutputStream();
        assertThat(backend().writeLogs(key("talks"), Role.TRAINER, 0, 2, false, out)).isTrue();

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("line 4\nline 5\n");
    }

    @Test
    void logsOfAReplicaTheJobDoesNotHaveAreRefused() throws IOException {
        submit(plan("two-replicas", Act.keepsRunning()));

        assertThat(backend().writeLogs(key("two-replicas"), Role.TRAINER, 1, null, false, new ByteArrayOutputStream()))
                .isFalse();
        assertThat(backend().writeLogs(key("two-replicas"), Role.PSERVER, 1, null, false, new ByteArrayOutputStream()))
                .isFalse();
        assertThat(backend().writeLogs(key("never-submitted"), Role.TRAINER, 0, null, false, new ByteArrayOutputStream()))
                .isFalse();
    }

    /** The service lists newest first ({@link ListPosition#ORDER}): the creation times the backend keeps must allow it. */
    @Test
    void listIsNewestFirstInTheServicesOrder() {
        // Named so that name order is the reverse of creation order: a list sorted by name fails.
        submit(plan("a-older", Act.keepsRunning()));
        // Some backends stamp creation to the second (Kubernetes): wait for the next one, so the times differ.
        Instant olderCreated = job("a-older").status().createdAt();
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50))
                .until(() -> Instant.now().truncatedTo(ChronoUnit.SECONDS).isAfter(olderCreated));
        submit(plan("b-newer", Act.keepsRunning()));

        List<Job> jobs = backend().list(namespace()).stream().sorted(ListPosition.ORDER).toList();

        assertThat(job("b-newer").status().createdAt()).isAfter(olderCreated);
        assertThat(names(jobs)).containsExactly("b-newer", "a-older");
        assertThat(backend().list(namespace() + "-elsewhere")).isEmpty();
    }

    /** A restart is the whole job made again, and the job is there to read all along: never a 404 in between. */
    @Test
    void aJobWhoseTrainerFailsOnceIsRestartedOnceAndSucceedsAndIsFoundThroughout() throws InterruptedException {
        JobKey key = key("flaky");
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger missing = new AtomicInteger();
        submit(restarting(plan("flaky", Act.trainerFailsTheFirstAttempt()), 2, null));
        // Reads as clients make them, every millisecond, from the submit to the end: how many found nothing.
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                if (backend().find(key).isEmpty()) {
                    missing.incrementAndGet();
                }
                LockSupport.parkNanos(1_000_000);
            }
        }, "contract-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            backoffPasses(key, 1);
            awaitPhase("flaky", JobPhase.SUCCEEDED);
        } finally {
            done.set(true);
            reader.join();
        }

        JobStatus status = job("flaky").status();
        assertThat(missing.get()).as("reads that found no job").isZero();
        assertThat(status.restarts()).isEqualTo(1);
        assertThat(status.attempts()).extracting(Attempt::number).containsExactly(0, 1);
        assertThat(status.attempts().get(0).message()).contains("trainer-0").containsPattern("\\b1\\b");
        assertThat(status.attempts().get(0).finishedAt()).isNotNull();
        // The last attempt ended as the job did, in the job's own words.
        assertThat(status.attempts().get(1).finishedAt()).isEqualTo(status.finishedAt());
        assertThat(status.attempts().get(1).reason()).isEqualTo(status.reason());
        await().atMost(DEADLINE).until(() -> !anyReplicaRunning(key));
    }

    @Test
    void aJobWhoseTrainerAlwaysFailsFailsAfterExactlyItsRestartsSayingSo() {
        submit(restarting(plan("hopeless", Act.trainerExits(3)), 2, null));

        backoffPasses(key("hopeless"), 1);
        backoffPasses(key("hopeless"), 2);
        Job failed = awaitPhase("hopeless", JobPhase.FAILED);

        assertThat(failed.status().restarts()).isEqualTo(2);
        assertThat(failed.status().message()).startsWith("failed after 2 restarts: ").contains("trainer-0")
                .containsPattern("\\b3\\b");
        assertThat(failed.status().attempts()).extracting(Attempt::number).containsExactly(0, 1, 2);
        await().atMost(DEADLINE).until(() -> !anyReplicaRunning(key("hopeless")));
    }

    @Test
    void restartOnInfrastructureDoesNotRetryTheProgramsOwnExit() {
        submit(restarting(plan("own-exit", Act.trainerExits(1)), 2, RestartOn.parse("infrastructure")));

        Job failed = awaitPhase("own-exit", JobPhase.FAILED);

        assertThat(failed.status().restarts()).isZero();
        assertThat(failed.status().message()).doesNotStartWith("failed after").contains("trainer-0");
    }

    @Test
    void aCancelDuringTheBackoffCancelsTheJobAndNoFurtherAttemptStarts() {
        JobKey key = key("waiting");
        submit(restarting(plan("waiting", Act.trainerExits(1)), 3, null));
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50))
                .until(() -> backend().find(key).map(j -> RestartDecision.RESTARTING.equals(j.status().reason()))
                        .orElse(false));

        assertThat(backend().cancel(key).orElseThrow().status().phase()).isEqualTo(JobPhase.CANCELLED);

        // Past the backoff: still cancelled, with the one restart it had, and nothing of a next attempt runs.
        await().during(cancelledBackoffPasses()).atMost(DEADLINE).until(() ->
                job("waiting").status().phase() == JobPhase.CANCELLED && !anyReplicaRunning(key));
        assertThat(job("waiting").status().restarts()).isEqualTo(1);
    }

    @Test
    void findAndCancelOfAnUnknownKeyAreEmpty() {
        assertThat(backend().find(key("never-submitted"))).isEmpty();
        assertThat(backend().cancel(key("never-submitted"))).isEmpty();
    }

    /** Submits through the port, and deletes the job after the test. */
    protected final Job submit(JobPlan plan) {
        Job job = backend().submit(plan);
        submitted.add(new JobKey(plan.namespace(), plan.name()));
        return job;
    }

    /** The plan, its request asking for {@code maxRestarts} restarts on {@code on} ({@code null}: any failure). */
    private static JobPlan restarting(JobPlan plan, int maxRestarts, RestartOn on) {
        return plan.withSpec(JobRequests.Builder.from(plan.spec()).maxRestarts(maxRestarts).restartOn(on).build());
    }

    protected final JobKey key(String name) {
        return new JobKey(namespace(), name);
    }

    protected final Job job(String name) {
        return backend().find(key(name)).orElseThrow(() -> new AssertionError("no job " + name));
    }

    /** Waits until the job is in {@code phase}, failing at once when it ends in another one. */
    protected final Job awaitPhase(String name, JobPhase phase) {
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Job now = job(name);
            JobPhase current = now.status().phase();
            if (current != phase && current.isFinished()) {
                throw new IllegalStateException(name + " ended " + current + " instead of " + phase + ": "
                        + now.status().reason() + " " + now.status().message());
            }
            assertThat(current).as("phase of %s", name).isEqualTo(phase);
        });
        return job(name);
    }

    private static List<String> names(List<Job> jobs) {
        return jobs.stream().map(j -> j.plan().name()).toList();
    }
}

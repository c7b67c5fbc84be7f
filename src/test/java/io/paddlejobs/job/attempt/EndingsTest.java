package io.paddlejobs.job.attempt;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every ending each backend reports, as it reports it, and what it means on every backend: its cause for
 * {@code restart_on} (none: never retried), and whether a job with restarts left that retries
 * infrastructure, or exit code 3, starts again.
 */
class EndingsTest {

    private static final RestartBackoff BACKOFF = new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5));

    @ParameterizedTest(name = "{0} {1}: {2} {3}/{4} code {5} -> {6}")
    @CsvSource(nullValues = "-", value = {
            // backend,  reason,                 kind,         role,    index, code, cause,          infrastructure, [3]
            "local,      Completed,              SUCCEEDED,    -,       -,     -,    -,              false, false",
            "local,      TrainerFailed,          EXITED,       TRAINER, 1,     1,    EXIT,           false, false",
            "local,      TrainerFailed,          EXITED,       TRAINER, 0,     3,    EXIT,           false, true",
            "local,      TrainerFailed,          EXITED,       TRAINER, 0,     137,  INFRASTRUCTURE, true,  false",
            "local,      PserverFailed,          EXITED,       PSERVER, 0,     139,  EXIT,           false, false",
            "local,      ServiceRestarted,       FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "local,      Stalled,                STALLED,      -,       -,     -,    STALL,          false, false",
            "kubernetes, ReplicaFailed,          EXITED,       TRAINER, 0,     1,    EXIT,           false, false",
            "kubernetes, ReplicaFailed,          EXITED,       TRAINER, 0,     143,  INFRASTRUCTURE, true,  false",
            "kubernetes, OOMKilled,              FROM_OUTSIDE, TRAINER, 0,     137,  INFRASTRUCTURE, true,  false",
            "kubernetes, Evicted,                FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "kubernetes, BackoffLimitExceeded,   FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "kubernetes, PserversUnreachable,    FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "kubernetes, MaxRunTimeExceeded,     STOPPED,      -,       -,     -,    -,              false, false",
            "kubernetes, Stalled,                STALLED,      -,       -,     -,    STALL,          false, false",
            "slurm,      Completed,              SUCCEEDED,    -,       -,     -,    -,              false, false",
            "slurm,      TrainerFailed,          EXITED,       TRAINER, 1,     3,    EXIT,           false, true",
            "slurm,      TrainerFailed,          EXITED,       TRAINER, 1,     137,  INFRASTRUCTURE, true,  false",
            "slurm,      PserverFailed,          EXITED,       PSERVER, 0,     139,  EXIT,           false, false",
            "slurm,      RendezvousNotListening, EXITED,       TRAINER, 0,     -,    EXIT,           false, false",
            "slurm,      Failed,                 EXITED,       -,       -,     -,    EXIT,           false, false",
            "slurm,      NodeFailed,             FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "slurm,      NodeBootFailed,         FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "slurm,      OutOfMemory,            FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "slurm,      Preempted,              FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "slurm,      Lost,                   FROM_OUTSIDE, -,       -,     -,    INFRASTRUCTURE, true,  false",
            "slurm,      TimeLimit,              STOPPED,      -,       -,     -,    -,              false, false",
            "slurm,      Deadline,               STOPPED,      -,       -,     -,    -,              false, false",
            "slurm,      Cancelled,              STOPPED,      -,       -,     -,    -,              false, false",
            "slurm,      CancelledInSlurm,       STOPPED,      -,       -,     -,    -,              false, false",
            "slurm,      Stalled,                STALLED,      -,       -,     -,    STALL,          false, false",
    })
    void everyBackendsEndingHasOneMeaning(String backend, String reason, Ending.Kind kind, Role role, Integer index,
                                          Integer exitCode, io.paddlejobs.planning.RestartOn.Cause cause,
                                          boolean retriedAsInfrastructure, boolean retriedAsExitCode3) {
        Ending ending = new Ending(kind, role, index, exitCode, reason, reason + " in words");

        if (cause == null) {
            assertThat(FailureCause.of(ending)).as("no failure, never retried").isEmpty();
            assertThat(AttemptLedger.NONE.after(request("infrastructure"), ending, BACKOFF)).isEmpty();
            return;
        }
        assertThat(FailureCause.of(ending)).contains(cause);
        assertThat(restarts(request("infrastructure"), ending)).as("restart_on: infrastructure")
                .isEqualTo(retriedAsInfrastructure);
        assertThat(restarts(request("3"), ending)).as("restart_on: [3]").isEqualTo(retriedAsExitCode3);
        assertThat(restarts(request("stall"), ending)).as("restart_on: stall").isEqualTo(kind == Ending.Kind.STALLED);
        assertThat(restarts(JobRequests.spec("max_restarts=2").build(), ending)).as("no restart_on: any failure but a stall")
                .isEqualTo(kind != Ending.Kind.STALLED);
    }

    private static JobRequest request(String restartOn) {
        return JobRequests.spec("max_restarts=2 restart_on=" + restartOn).build();
    }

    private static boolean restarts(JobRequest request, Ending ending) {
        return AttemptLedger.NONE.after(request, ending, BACKOFF).orElseThrow() instanceof RestartDecision.Restart;
    }
}

package io.paddlejobs.webhooks;

import static io.paddlejobs.planning.JobEvent.CANCELLED;
import static io.paddlejobs.planning.JobEvent.FAILED;
import static io.paddlejobs.planning.JobEvent.RESTARTING;
import static io.paddlejobs.planning.JobEvent.STALLED;
import static io.paddlejobs.planning.JobEvent.STARTED;
import static io.paddlejobs.planning.JobEvent.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LifeEventsTest {

    private static final Instant T = Instant.parse("2026-12-01T00:00:00Z");

    /** A status: phase, reason, restarts, whether it has started. */
    private static JobStatus status(JobPhase phase, String reason, int restarts, boolean started) {
        return new JobStatus(phase, reason, null, T, started ? T : null, phase.isFinished() ? T : null, null,
                new RoleCounts(0, 0, 0, 0, 0), new RoleCounts(0, 0, 0, 0, 0), List.of(), restarts, List.of());
    }

    static Stream<Arguments> lives() {
        JobStatus queued = status(JobPhase.PENDING, "Queued", 0, false);
        JobStatus running = status(JobPhase.RUNNING, null, 0, true);
        JobStatus stalled = status(JobPhase.RUNNING, LifeEvents.STALLED, 0, true);
        JobStatus restarting = status(JobPhase.PENDING, "Restarting", 1, true);
        JobStatus rerunning = status(JobPhase.RUNNING, null, 1, true);
        JobStatus succeeded = status(JobPhase.SUCCEEDED, "Completed", 1, true);
        return Stream.of(
                Arguments.of("queued, then runs and succeeds", List.of(queued, running, status(JobPhase.SUCCEEDED, null, 0, true)),
                        List.of(STARTED, SUCCEEDED)),
                Arguments.of("each look told again tells nothing twice", List.of(running, running, stalled, stalled, running),
                        List.of(STARTED, STALLED)),
                Arguments.of("stalls twice in one attempt", List.of(running, stalled, running, stalled), List.of(STARTED, STALLED, STALLED)),
                Arguments.of("fails, restarts, succeeds", List.of(running, restarting, rerunning, succeeded),
                        List.of(STARTED, RESTARTING, SUCCEEDED)),
                Arguments.of("a restart seen only once it runs", List.of(running, rerunning), List.of(STARTED, RESTARTING)),
                Arguments.of("started and ended between two looks", List.of(status(JobPhase.FAILED, "TrainerFailed", 0, true)),
                        List.of(STARTED, FAILED)),
                Arguments.of("cancelled while queued never started", List.of(queued, status(JobPhase.CANCELLED, null, 0, false)),
                        List.of(CANCELLED)),
                Arguments.of("nothing after the end", List.of(running, status(JobPhase.FAILED, null, 0, true),
                        status(JobPhase.FAILED, "Other", 0, true)), List.of(STARTED, FAILED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lives")
    void eachEventOfALifeIsToldOnceInOrder(String life, List<JobStatus> looks, List<JobEvent> told) {
        Handled handled = Handled.NOTHING;
        List<JobEvent> events = new ArrayList<>();
        for (JobStatus look : looks) {
            LifeEvents.Step step = LifeEvents.between(handled, look);
            events.addAll(step.events());
            handled = step.handled();
        }
        assertThat(events).isEqualTo(told);
    }
}

package io.paddlejobs.webhooks;

import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The events between what was handled and a job's status now, in the order they happened: started,
 * then restarting or stalled, then how it ended. A pure function of the two, so looks that come late
 * or twice (a burst of changes, a restart of the service) tell each event once: a job that started
 * and ended between two looks is told both.
 */
final class LifeEvents {

    /** The reason a backend shows while no trainer prints or reports. */
    static final String STALLED = "Stalled";

    record Step(List<JobEvent> events, Handled handled) {
    }

    private LifeEvents() {
    }

    static Step between(Handled before, JobStatus now) {
        List<JobEvent> events = new ArrayList<>();
        if (before.finished()) {
            return new Step(events, before);
        }
        boolean started = before.started() || now.startedAt() != null || now.phase() == JobPhase.RUNNING;
        if (started && !before.started()) {
            events.add(JobEvent.STARTED);
        }
        // A failed attempt counts its coming restart at once (reason Restarting), on every backend: one
        // event per count, whether the look saw it waiting or only once the next attempt ran.
        int restarts = Math.max(before.restarts(), now.restarts());
        if (restarts > before.restarts()) {
            events.add(JobEvent.RESTARTING);
        }
        int stalled = -1;
        if (!now.phase().isFinished() && STALLED.equals(now.reason())) {
            stalled = now.restarts();
            if (before.stalled() != stalled) {
                events.add(JobEvent.STALLED);
            }
        }
        switch (now.phase()) {
            case SUCCEEDED -> events.add(JobEvent.SUCCEEDED);
            case FAILED -> events.add(JobEvent.FAILED);
            case CANCELLED -> events.add(JobEvent.CANCELLED);
            case PENDING, RUNNING -> {
            }
        }
        return new Step(events, new Handled(started, restarts, stalled, now.phase()));
    }
}

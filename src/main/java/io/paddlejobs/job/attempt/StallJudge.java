package io.paddlejobs.job.attempt;

import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.RestartOn;
import java.time.Instant;
import java.util.Optional;

/**
 * What a stall ({@link StallWatch}) means for a job, the same on every backend: where {@code restart_on}
 * names {@code stall} it fails the attempt ({@link Ending#stalled}), else it is a warning on the running job.
 */
public final class StallJudge {

    private StallJudge() {
    }

    /** Whether a stall fails the attempt ({@code restart_on} names it) rather than being a warning. */
    public static boolean failsTheAttempt(JobRequest spec) {
        return spec.lifecycle().restartOnOrDefault().retries(RestartOn.Cause.STALL, null);
    }

    /** The running attempt's status as a stall shows it: failed where {@code restart_on} names stall, else warned. */
    public static JobStatus shown(JobRequest spec, JobStatus status, Optional<String> silence, Instant now) {
        if (silence.isEmpty()) {
            return status;
        }
        return failsTheAttempt(spec) ? StallWatch.failed(status, silence.get(), now)
                : StallWatch.warned(status, silence.get());
    }
}

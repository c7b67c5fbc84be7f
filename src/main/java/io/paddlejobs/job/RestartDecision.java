package io.paddlejobs.job;

import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.RestartOn;
import java.time.Duration;

/**
 * What a failed attempt leads to, the same on every backend: the whole job started again after a
 * backoff, while its {@code max_restarts} are not spent and its {@code restart_on} names the failure;
 * else the job fails, saying how many restarts it had. A cancel or a {@code max_run_time} overrun is no
 * failure of an attempt and never comes here.
 */
public sealed interface RestartDecision {

    /** The reason a job shows between a failed attempt and the next one. */
    String RESTARTING = "Restarting";

    /** Start attempt {@code restart} after {@code backoff}; the job's message until then is {@code message}. */
    record Restart(int restart, Duration backoff, String message) implements RestartDecision {
    }

    /** The job fails with this message. */
    record Fail(String message) implements RestartDecision {
    }

    /**
     * @param restarts how many restarts the job has had so far
     * @param failure  what failed and how, as the job's message says it ({@code trainer-1 exited with code 1 ...})
     * @param exitCode the failed replica's exit code, when it has one
     */
    static RestartDecision after(JobRequest spec, int restarts, RestartBackoff backoff, String failure,
                                 RestartOn.Cause cause, Integer exitCode) {
        int max = spec.lifecycle().maxRestartsOrDefault();
        if (restarts < max && spec.lifecycle().restartOnOrDefault().retries(cause, exitCode)) {
            int next = restarts + 1;
            Duration wait = backoff.before(next);
            return new Restart(next, wait, "%s; restart %d of %d in %s".formatted(failure, next, max, words(wait)));
        }
        return new Fail(restarts == 0 ? failure
                : "failed after %d restart%s: %s".formatted(restarts, restarts == 1 ? "" : "s", failure));
    }

    /** {@code 10 s}, {@code 2 min 40 s}: how long, as a person reads it. */
    static String words(Duration wait) {
        long seconds = wait.toSeconds();
        if (seconds < 60) {
            return wait.toMillis() < 1000 ? wait.toMillis() + " ms" : seconds + " s";
        }
        return seconds % 60 == 0 ? seconds / 60 + " min" : "%d min %d s".formatted(seconds / 60, seconds % 60);
    }
}

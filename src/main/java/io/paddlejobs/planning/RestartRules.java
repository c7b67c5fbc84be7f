package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;

/**
 * The rules of {@code max_restarts}, {@code restart_on}, {@code stall_timeout} and {@code debug_hold} together:
 * ceilings from the operator, and no setting that would silently do nothing.
 */
final class RestartRules {

    private RestartRules() {
    }

    static List<Violation> check(JobRequest.Lifecycle r, PlanningPolicy.Limits limits) {
        List<Violation> violations = new ArrayList<>();
        if (r.maxRestartsOrDefault() > limits.maxRestarts()) {
            violations.add(Violation.of("max_restarts", r.maxRestarts(),
                    "the job would restart up to %d times; the limit is %d (paddlejobs.limits.max-restarts)"
                            .formatted(r.maxRestarts(), limits.maxRestarts())));
        }
        if (r.debugHold() != null && r.debugHold().compareTo(limits.maxDebugHold()) > 0) {
            violations.add(Violation.of("debug_hold", written(r.debugHold()),
                    "a failed attempt would be held for %s, keeping its replicas and GPUs; the limit is %s"
                            .formatted(written(r.debugHold()), limits.maxDebugHold().isZero() ? "0: this"
                                    + " service holds no failed attempt" : written(limits.maxDebugHold()))
                            + " (paddlejobs.limits.max-debug-hold)"));
        }
        if (r.restartOn() != null && r.maxRestartsOrDefault() == 0) {
            violations.add(new Violation(List.of("restart_on", "max_restarts"),
                    "restart_on says which failures are retried, but max_restarts is 0: set max_restarts above 0"
                            + " or remove restart_on", r.restartOn().wire()));
        }
        if (r.restartOn() != null && r.restartOn().stall() && r.stallTimeout() == null) {
            violations.add(new Violation(List.of("restart_on", "stall_timeout"),
                    "restart_on names stall, but without stall_timeout no job is ever stalled: set stall_timeout"
                            + " (such as 30m)", r.restartOn().wire()));
        }
        return violations;
    }

    /** {@code 45m}, {@code 90s}: as a request writes it. */
    private static String written(java.time.Duration duration) {
        return duration.toSecondsPart() == 0 ? duration.toMinutes() + "m" : duration.toSeconds() + "s";
    }
}

package io.paddlejobs.job;

import io.paddlejobs.planning.InvalidJobRequestException;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Violation;
import java.util.List;
import java.util.Map;

/**
 * A bound on how large a plan may grow. Each replica gets its own copy of the environment, the
 * user's {@code env} included, so a 60 KB request planned into 128 replicas became an 8 MB plan:
 * in every response, in memory, and once on disk.
 *
 * @param maxBytes the most the replicas' environments may add up to ({@code paddlejobs.limits.max-plan-size})
 */
public record PlanSize(long maxBytes) {

    /** @throws InvalidJobRequestException naming {@code env} when the replicas' environments add up to more than {@link #maxBytes} */
    void check(JobPlan plan) {
        long total = 0;
        for (Replica replica : plan.replicas()) {
            for (Map.Entry<String, String> variable : replica.env().entrySet()) {
                total += variable.getKey().length() + variable.getValue().length() + 8;
            }
        }
        if (total > maxBytes) {
            throw new InvalidJobRequestException(List.of(new Violation(List.of("env"),
                    ("the environment of the job's %d replicas adds up to %d KiB, more than the %d KiB a plan may hold "
                            + "(paddlejobs.limits.max-plan-size); every replica gets its own copy of env, so pass large "
                            + "values in a file instead").formatted(plan.replicas().size(), total >> 10, maxBytes >> 10),
                    null)));
        }
    }
}

package io.paddlejobs.planning;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plans read back from their JSON (a record, the history) with every equal environment value held
 * once. Every replica's environment repeats the request's {@code env} and the job's lists of
 * endpoints; as planned, the replicas share those strings, but a JSON reader gives each replica its
 * own copies: the largest plan a request may make (64 + 64 replicas, {@code max-plan-size} of env)
 * then holds about 4 MB rather than a few dozen KB, and a few dozen of them fill a small heap.
 * One instance shares values across the plans it is given (a Slurm record's placed and submitted plan).
 */
public final class SharedValues {

    private final Map<String, String> canonical = new HashMap<>();

    /** The same plan, its replicas' equal names and values one string each; {@code null} stays {@code null}. */
    public JobPlan compact(JobPlan plan) {
        if (plan == null || plan.replicas() == null) {
            return plan;
        }
        return plan.withReplicas(plan.replicas().stream().map(this::compact).toList());
    }

    private Replica compact(Replica replica) {
        if (replica == null || replica.env() == null) {
            return replica;
        }
        Map<String, String> env = new LinkedHashMap<>();
        replica.env().forEach((name, value) -> env.put(name.intern(), value == null ? null : shared(value)));
        return new Replica(replica.role(), replica.index(), replica.host(), env);
    }

    private String shared(String value) {
        return canonical.computeIfAbsent(value, v -> v);
    }
}

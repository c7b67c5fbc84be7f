package io.paddlejobs.planning;

import java.util.List;

/**
 * Everything needed to start a job, decided before anything starts: the topology, what each
 * replica gets and runs, every replica's environment, and why each number is what it is.
 *
 * @param spec the request as the user gave it (with its name filled in); two submissions of
 *             the same name are the same job exactly when their specs are equal
 */
public record JobPlan(
        String name,
        String namespace,
        String image,
        JobRequest spec,
        RolePlan pservers,
        RolePlan trainers,
        Ports ports,
        boolean useGpu,
        Resources totals,
        List<Replica> replicas,
        List<Derivation> derivations,
        List<String> warnings) {

    public JobPlan {
        replicas = List.copyOf(replicas);
        derivations = List.copyOf(derivations);
        warnings = List.copyOf(warnings);
    }

    public JobMode mode() {
        return spec.modeOrDefault();
    }

    public List<Replica> replicasOf(Role role) {
        return replicas.stream().filter(r -> r.role() == role).toList();
    }

    public RolePlan role(Role role) {
        return switch (role) {
            case PSERVER -> pservers;
            case TRAINER -> trainers;
        };
    }
}

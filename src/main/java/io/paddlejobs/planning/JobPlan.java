package io.paddlejobs.planning;

import java.util.ArrayList;
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

    /** The same plan for another spec (the request as the user gave it, where the plan was made from a changed one). */
    public JobPlan withSpec(JobRequest newSpec) {
        return new JobPlan(name, namespace, image, newSpec, pservers, trainers, ports, useGpu, totals, replicas,
                derivations, warnings);
    }

    /** The same plan with another image (the one a running job was actually started with). */
    public JobPlan withImage(String newImage) {
        return new JobPlan(name, namespace, newImage, spec, pservers, trainers, ports, useGpu, totals, replicas,
                derivations, warnings);
    }

    /** The same plan with these replicas in place of its own (the same ones, stored more compactly). */
    public JobPlan withReplicas(List<Replica> newReplicas) {
        return new JobPlan(name, namespace, image, spec, pservers, trainers, ports, useGpu, totals, newReplicas,
                derivations, warnings);
    }

    /** The same plan with one more reason for a number, decided after planning. */
    public JobPlan plusDerivation(Derivation derivation) {
        List<Derivation> more = new ArrayList<>(derivations);
        more.add(derivation);
        return new JobPlan(name, namespace, image, spec, pservers, trainers, ports, useGpu, totals, replicas,
                more, warnings);
    }

    /** The same plan with more warnings, decided after planning; the plan itself when there are none. */
    public JobPlan plusWarnings(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(warnings);
        all.addAll(more);
        return new JobPlan(name, namespace, image, spec, pservers, trainers, ports, useGpu, totals, replicas,
                derivations, all);
    }

    /** The image a replica of this role runs: the pservers' own where the request gives one, else the job's. */
    public String image(Role role) {
        String pservers = spec.code().pserverImage();
        return role == Role.PSERVER && pservers != null ? pservers : image;
    }

    public JobMode mode() {
        return spec.topology().modeOrDefault();
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

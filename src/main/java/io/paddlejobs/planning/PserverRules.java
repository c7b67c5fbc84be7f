package io.paddlejobs.planning;

import java.util.List;

/** How many pservers a job gets and what each is given, with the derivations that say why. */
final class PserverRules {

    private final JobRequest request;
    private final PlanningPolicy.Defaults defaults;
    private final List<Derivation> derivations;

    PserverRules(JobRequest request, PlanningPolicy.Defaults defaults, List<Derivation> derivations) {
        this.request = request;
        this.defaults = defaults;
        this.derivations = derivations;
    }

    /** Collective mode: trainers only. */
    int none() {
        derived("pservers", 0, "collective mode: trainers only");
        return 0;
    }

    int count(int trainers) {
        if (request.topology().pservers() != null) {
            derived("pservers", request.topology().pservers(), "given");
            return request.topology().pservers();
        }
        derived("pservers", trainers, "one pserver per trainer");
        return trainers;
    }

    /** What each pserver is given: CPUs and memory, never GPUs. */
    Resources resources() {
        int cores = request.compute().pserverCpu() != null ? request.compute().pserverCpu() : defaults.pserverCpu();
        derived("pserver_cpu", cores, request.compute().pserverCpu() != null ? "given" : "default");
        Memory memory = request.compute().pserverMem() != null ? request.compute().pserverMem() : defaults.pserverMem();
        derived("pserver_mem", memory, request.compute().pserverMem() != null ? "given" : "default");
        return new Resources(Cpu.cores(cores), 0, memory);
    }

    private void derived(String field, Object value, String rule) {
        derivations.add(new Derivation(field, String.valueOf(value), rule));
    }
}

package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;

/** The operator's per-job ceilings, checked against a derived topology. */
final class LimitRules {

    private final PlanningPolicy.Limits limits;

    LimitRules(PlanningPolicy.Limits limits) {
        this.limits = limits;
    }

    List<Violation> check(Topology t) {
        List<Violation> violations = new ArrayList<>();
        Resources total = t.total();
        if (t.trainers() > limits.maxTrainers()) {
            violations.add(new Violation(t.trainerSource(),
                    over("the job would have %d trainers".formatted(t.trainers()), limits.maxTrainers(), "max-trainers"),
                    t.trainers()));
        }
        if (t.pservers() > limits.maxPservers()) {
            violations.add(Violation.of("pservers", t.pservers(),
                    over("the job would have %d pservers".formatted(t.pservers()), limits.maxPservers(), "max-pservers")));
        }
        // Counted in long: an int total of trainers x trainer_gpu can wrap to a small number and pass.
        long gpus = (long) t.perTrainer().gpu() * t.trainers() + (long) t.perPserver().gpu() * t.pservers();
        if (gpus > limits.maxGpus()) {
            violations.add(new Violation(List.of("num_gpus"),
                    over("the job would use %d GPUs".formatted(gpus), limits.maxGpus(), "max-gpus"), gpus));
        }
        if (total.cpu().millis() > limits.maxCpus() * 1000L) {
            violations.add(new Violation(List.of("num_cpus"),
                    over("the job would use %s CPUs, pservers included".formatted(total.cpu()), limits.maxCpus(), "max-cpus"),
                    total.cpu().toString()));
        }
        if (total.memory().compareTo(limits.maxMemory()) > 0) {
            violations.add(new Violation(List.of("memory"),
                    over("the job would use %s of memory, pservers included".formatted(total.memory()),
                            limits.maxMemory(), "max-memory"),
                    total.memory().toString()));
        }
        return violations;
    }

    private static String over(String what, Object limit, String key) {
        return "%s; the limit is %s (paddlejobs.limits.%s)".formatted(what, limit, key);
    }
}

package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;

/** Derives a {@link Topology} from one request: the planner's rules, one method per number. */
final class TopologyRules {

    private static final Memory SMALLEST_SHARE = Memory.ofMebibytes(1);
    private static final Resources NOTHING = new Resources(Cpu.cores(0), 0, Memory.ofMebibytes(0));

    private final JobRequest request;
    /** What was asked for the job and per replica, read by nearly every rule. */
    private final JobRequest.Compute asked;
    private final PlanningPolicy.Defaults defaults;
    private final PlanningPolicy.Gpu gpuPolicy;
    private final List<Derivation> derivations = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();

    TopologyRules(JobRequest request, PlanningPolicy policy) {
        this.request = request;
        this.asked = request.compute();
        this.defaults = policy.defaults();
        this.gpuPolicy = policy.gpu();
    }

    Topology derive() {
        derivations.add(ModeRules.derivation(request));
        TrainerCount count = trainers();
        int trainers = count.value();
        int gpu = gpusPerTrainer(count);
        var floors = new GpuFloorRule(gpuPolicy, derivations, warnings);
        Cpu cpu = floors.cpu(gpu, cpuPerTrainer(count), asked.trainerCpu() != null, asked.numCpus() != null);
        Memory memory = floors.memory(gpu, memoryPerTrainer(count), asked.trainerMem() != null, asked.memory() != null);
        boolean collective = request.topology().modeOrDefault() == JobMode.COLLECTIVE;
        var pserverRules = new PserverRules(request, defaults, derivations);
        int pservers = collective ? pserverRules.none() : pserverRules.count(trainers);
        Resources perPserver = collective ? NOTHING : pserverRules.resources();
        boolean useGpu = useGpu((long) trainers * gpu);
        int devices = gpu > 0 ? gpu : cpu.wholeCoresAtLeastOne();
        derived("trainer_count", devices, gpu > 0
                ? "PADDLE_TRAINER_COUNT: each trainer's GPUs"
                : "PADDLE_TRAINER_COUNT: each trainer's whole CPUs, at least 1");
        return new Topology(trainers, pservers, new Resources(cpu, gpu, memory), perPserver, devices, useGpu,
                count.source(), derivations, warnings, violations);
    }

    /** The trainer count and the fields it came from. */
    private record TrainerCount(int value, List<String> source) {
    }

    private TrainerCount trainers() {
        if (request.topology().trainers() != null) {
            derived("trainers", request.topology().trainers(), "given");
            return new TrainerCount(request.topology().trainers(), List.of("trainers"));
        }
        if (asked.numGpus() != null && asked.numGpus() > 0) {
            if (asked.trainerGpu() != null && asked.trainerGpu() > 0) {
                requireMultiple(asked.numGpus(), "num_gpus", asked.trainerGpu(), "trainer_gpu");
                int value = Math.max(1, asked.numGpus() / asked.trainerGpu());
                derived("trainers", value, "num_gpus / trainer_gpu");
                return new TrainerCount(value, List.of("num_gpus", "trainer_gpu"));
            }
            derived("trainers", asked.numGpus(), "one trainer per GPU (num_gpus)");
            return new TrainerCount(asked.numGpus(), List.of("num_gpus"));
        }
        if (asked.trainerCpu() != null) {
            if (asked.numCpus() == null) {
                derived("trainers", 1, "one trainer: trainer_cpu given without num_cpus");
                return new TrainerCount(1, List.of("trainer_cpu"));
            }
            requireMultiple(asked.numCpus(), "num_cpus", asked.trainerCpu(), "trainer_cpu");
            int value = Math.max(1, asked.numCpus() / asked.trainerCpu());
            derived("trainers", value, "num_cpus / trainer_cpu");
            return new TrainerCount(value, List.of("num_cpus", "trainer_cpu"));
        }
        int cpus = numCpus();
        derived("trainers", cpus, "one trainer per CPU (num_cpus), as no GPUs are asked for");
        return new TrainerCount(cpus, List.of("num_cpus"));
    }

    private int gpusPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (asked.trainerGpu() != null) {
            boolean countCameFromGpus = count.source().contains("trainer_gpu");
            if (asked.numGpus() != null && !countCameFromGpus && trainers * asked.trainerGpu() != asked.numGpus()) {
                conflict(withTrainers(count, "trainer_gpu", "num_gpus"), asked.numGpus(),
                        "trainers (%d) x trainer_gpu (%d) = %d, but num_gpus is %d"
                                .formatted(trainers, asked.trainerGpu(), trainers * asked.trainerGpu(), asked.numGpus()));
            }
            derived("trainer_gpu", asked.trainerGpu(), "given");
            return asked.trainerGpu();
        }
        if (asked.numGpus() == null || asked.numGpus() == 0) {
            derived("trainer_gpu", 0, "no GPUs asked for");
            return 0;
        }
        if (asked.numGpus() % trainers != 0) {
            conflict(withTrainers(count, "num_gpus"), asked.numGpus(),
                    "num_gpus (%d) cannot be split evenly over %d trainers; GPUs are not shared"
                            .formatted(asked.numGpus(), trainers));
        }
        int value = asked.numGpus() / trainers;
        derived("trainer_gpu", value, "num_gpus / trainers");
        return value;
    }

    private Cpu cpuPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (asked.trainerCpu() != null) {
            boolean countCameFromCpus = count.source().contains("trainer_cpu");
            if (asked.numCpus() != null && !countCameFromCpus && trainers * asked.trainerCpu() != asked.numCpus()) {
                conflict(withTrainers(count, "trainer_cpu", "num_cpus"), asked.numCpus(),
                        "trainers (%d) x trainer_cpu (%d) = %d, but num_cpus is %d"
                                .formatted(trainers, asked.trainerCpu(), trainers * asked.trainerCpu(), asked.numCpus()));
            }
            derived("trainer_cpu", asked.trainerCpu(), "given");
            return Cpu.cores(asked.trainerCpu());
        }
        Cpu value = Cpu.cores(numCpus()).dividedBy(trainers);
        derived("trainer_cpu", value, "num_cpus / trainers" + (value.millis() % 1000 == 0 ? "" : ", in millicores"));
        return value;
    }

    private Memory memoryPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (asked.trainerMem() != null) {
            if (asked.memory() != null && asked.trainerMem().times(trainers).compareTo(asked.memory()) != 0) {
                conflict(withTrainers(count, "trainer_mem", "memory"), asked.memory().toString(),
                        "trainers (%d) x trainer_mem (%s) = %s, but memory is %s".formatted(
                                trainers, asked.trainerMem(), asked.trainerMem().times(trainers), asked.memory()));
            }
            derived("trainer_mem", asked.trainerMem(), "given");
            return asked.trainerMem();
        }
        Memory total = asked.memory() != null ? asked.memory() : defaults.memory();
        Memory value = total.dividedBy(trainers);
        if (value.compareTo(SMALLEST_SHARE) < 0) {
            conflict(withTrainers(count, "memory"), total.toString(),
                    "memory (%s) split over %d trainers leaves less than %s each".formatted(total, trainers, SMALLEST_SHARE));
        }
        derived("trainer_mem", value, "memory / trainers"
                + (value.times(trainers).equals(total) ? "" : ", rounded down to whole Mi"));
        return value;
    }

    private boolean useGpu(long totalGpus) {
        boolean gpusAsked = totalGpus > 0;
        if (asked.useGpu() == null) {
            derived("use_gpu", gpusAsked, gpusAsked ? "GPUs are asked for" : "no GPUs are asked for");
            return gpusAsked;
        }
        if (asked.useGpu() != gpusAsked) {
            warnings.add(asked.useGpu()
                    ? "use_gpu is true but the job asks for no GPUs: Paddle will look for a GPU it does not have"
                    : "use_gpu is false but the job asks for %d GPUs: they will sit idle".formatted(totalGpus));
        }
        derived("use_gpu", asked.useGpu(), "given");
        return asked.useGpu();
    }

    private int numCpus() {
        return asked.numCpus() != null ? asked.numCpus() : defaults.numCpus();
    }

    private void requireMultiple(int total, String totalField, int each, String eachField) {
        if (total % each != 0) {
            conflict(List.of(totalField, eachField), total,
                    "%s (%d) is not a multiple of %s (%d)".formatted(totalField, total, eachField, each));
        }
    }

    private List<String> withTrainers(TrainerCount count, String... fields) {
        List<String> all = new ArrayList<>();
        count.source().stream().filter(f -> !List.of(fields).contains(f)).forEach(all::add);
        all.addAll(List.of(fields));
        return all;
    }

    private void conflict(List<String> fields, Object rejected, String message) {
        violations.add(new Violation(fields, message, rejected));
    }

    private void derived(String field, Object value, String rule) {
        derivations.add(new Derivation(field, String.valueOf(value), rule));
    }
}

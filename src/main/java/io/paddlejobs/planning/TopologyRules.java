package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;

/** Derives a {@link Topology} from one request: the planner's rules, one method per number. */
final class TopologyRules {

    private static final Memory SMALLEST_SHARE = Memory.ofMebibytes(1);
    private static final Resources NOTHING = new Resources(Cpu.cores(0), 0, Memory.ofMebibytes(0));

    private final JobRequest request;
    private final PlanningPolicy.Defaults defaults;
    private final PlanningPolicy.Gpu gpuPolicy;
    private final List<Derivation> derivations = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();

    TopologyRules(JobRequest request, PlanningPolicy policy) {
        this.request = request;
        this.defaults = policy.defaults();
        this.gpuPolicy = policy.gpu();
    }

    Topology derive() {
        derivations.add(ModeRules.derivation(request));
        TrainerCount count = trainers();
        int trainers = count.value();
        int gpu = gpusPerTrainer(count);
        var floors = new GpuFloorRule(gpuPolicy, derivations, warnings);
        Cpu cpu = floors.cpu(gpu, cpuPerTrainer(count), request.trainerCpu() != null, request.numCpus() != null);
        Memory memory = floors.memory(gpu, memoryPerTrainer(count), request.trainerMem() != null, request.memory() != null);
        boolean collective = request.modeOrDefault() == JobMode.COLLECTIVE;
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
        if (request.trainers() != null) {
            derived("trainers", request.trainers(), "given");
            return new TrainerCount(request.trainers(), List.of("trainers"));
        }
        if (request.numGpus() != null && request.numGpus() > 0) {
            if (request.trainerGpu() != null && request.trainerGpu() > 0) {
                requireMultiple(request.numGpus(), "num_gpus", request.trainerGpu(), "trainer_gpu");
                int value = Math.max(1, request.numGpus() / request.trainerGpu());
                derived("trainers", value, "num_gpus / trainer_gpu");
                return new TrainerCount(value, List.of("num_gpus", "trainer_gpu"));
            }
            derived("trainers", request.numGpus(), "one trainer per GPU (num_gpus)");
            return new TrainerCount(request.numGpus(), List.of("num_gpus"));
        }
        if (request.trainerCpu() != null) {
            if (request.numCpus() == null) {
                derived("trainers", 1, "one trainer: trainer_cpu given without num_cpus");
                return new TrainerCount(1, List.of("trainer_cpu"));
            }
            requireMultiple(request.numCpus(), "num_cpus", request.trainerCpu(), "trainer_cpu");
            int value = Math.max(1, request.numCpus() / request.trainerCpu());
            derived("trainers", value, "num_cpus / trainer_cpu");
            return new TrainerCount(value, List.of("num_cpus", "trainer_cpu"));
        }
        int cpus = numCpus();
        derived("trainers", cpus, "one trainer per CPU (num_cpus), as no GPUs are asked for");
        return new TrainerCount(cpus, List.of("num_cpus"));
    }

    private int gpusPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (request.trainerGpu() != null) {
            boolean countCameFromGpus = count.source().contains("trainer_gpu");
            if (request.numGpus() != null && !countCameFromGpus && trainers * request.trainerGpu() != request.numGpus()) {
                conflict(withTrainers(count, "trainer_gpu", "num_gpus"), request.numGpus(),
                        "trainers (%d) x trainer_gpu (%d) = %d, but num_gpus is %d"
                                .formatted(trainers, request.trainerGpu(), trainers * request.trainerGpu(), request.numGpus()));
            }
            derived("trainer_gpu", request.trainerGpu(), "given");
            return request.trainerGpu();
        }
        if (request.numGpus() == null || request.numGpus() == 0) {
            derived("trainer_gpu", 0, "no GPUs asked for");
            return 0;
        }
        if (request.numGpus() % trainers != 0) {
            conflict(withTrainers(count, "num_gpus"), request.numGpus(),
                    "num_gpus (%d) cannot be split evenly over %d trainers; GPUs are not shared"
                            .formatted(request.numGpus(), trainers));
        }
        int value = request.numGpus() / trainers;
        derived("trainer_gpu", value, "num_gpus / trainers");
        return value;
    }

    private Cpu cpuPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (request.trainerCpu() != null) {
            boolean countCameFromCpus = count.source().contains("trainer_cpu");
            if (request.numCpus() != null && !countCameFromCpus && trainers * request.trainerCpu() != request.numCpus()) {
                conflict(withTrainers(count, "trainer_cpu", "num_cpus"), request.numCpus(),
                        "trainers (%d) x trainer_cpu (%d) = %d, but num_cpus is %d"
                                .formatted(trainers, request.trainerCpu(), trainers * request.trainerCpu(), request.numCpus()));
            }
            derived("trainer_cpu", request.trainerCpu(), "given");
            return Cpu.cores(request.trainerCpu());
        }
        Cpu value = Cpu.cores(numCpus()).dividedBy(trainers);
        derived("trainer_cpu", value, "num_cpus / trainers" + (value.millis() % 1000 == 0 ? "" : ", in millicores"));
        return value;
    }

    private Memory memoryPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (request.trainerMem() != null) {
            if (request.memory() != null && request.trainerMem().times(trainers).compareTo(request.memory()) != 0) {
                conflict(withTrainers(count, "trainer_mem", "memory"), request.memory().toString(),
                        "trainers (%d) x trainer_mem (%s) = %s, but memory is %s".formatted(
                                trainers, request.trainerMem(), request.trainerMem().times(trainers), request.memory()));
            }
            derived("trainer_mem", request.trainerMem(), "given");
            return request.trainerMem();
        }
        Memory total = request.memory() != null ? request.memory() : defaults.memory();
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
        boolean asked = totalGpus > 0;
        if (request.useGpu() == null) {
            derived("use_gpu", asked, asked ? "GPUs are asked for" : "no GPUs are asked for");
            return asked;
        }
        if (request.useGpu() != asked) {
            warnings.add(request.useGpu()
                    ? "use_gpu is true but the job asks for no GPUs: Paddle will look for a GPU it does not have"
                    : "use_gpu is false but the job asks for %d GPUs: they will sit idle".formatted(totalGpus));
        }
        derived("use_gpu", request.useGpu(), "given");
        return request.useGpu();
    }

    private int numCpus() {
        return request.numCpus() != null ? request.numCpus() : defaults.numCpus();
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

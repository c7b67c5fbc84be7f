package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;

/** Derives a {@link Topology} from one request: the planner's rules, one method per number. */
final class TopologyRules {

    private static final Memory SMALLEST_SHARE = Memory.ofMebibytes(1);
    private static final Resources NOTHING = new Resources(Cpu.cores(0), 0, Memory.ofMebibytes(0));

    private final JobRequest r;
    private final PlanningPolicy.Defaults defaults;
    private final PlanningPolicy.Gpu gpuPolicy;
    private final List<Derivation> derivations = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();

    TopologyRules(JobRequest request, PlanningPolicy policy) {
        this.r = request;
        this.defaults = policy.defaults();
        this.gpuPolicy = policy.gpu();
    }

    Topology derive() {
        derivations.add(ModeRules.derivation(r));
        TrainerCount count = trainers();
        int trainers = count.value();
        int gpu = gpusPerTrainer(count);
        var floors = new GpuFloorRule(gpuPolicy, derivations, warnings);
        Cpu cpu = floors.cpu(gpu, cpuPerTrainer(count), r.trainerCpu() != null, r.numCpus() != null);
        Memory memory = floors.memory(gpu, memoryPerTrainer(count), r.trainerMem() != null, r.memory() != null);
        boolean collective = r.modeOrDefault() == JobMode.COLLECTIVE;
        int pservers = collective ? noPservers() : pservers(trainers);
        Resources perPserver = collective ? NOTHING : new Resources(pserverCpu(), 0, pserverMemory());
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
        if (r.trainers() != null) {
            derived("trainers", r.trainers(), "given");
            return new TrainerCount(r.trainers(), List.of("trainers"));
        }
        if (r.numGpus() != null && r.numGpus() > 0) {
            if (r.trainerGpu() != null && r.trainerGpu() > 0) {
                requireMultiple(r.numGpus(), "num_gpus", r.trainerGpu(), "trainer_gpu");
                int value = Math.max(1, r.numGpus() / r.trainerGpu());
                derived("trainers", value, "num_gpus / trainer_gpu");
                return new TrainerCount(value, List.of("num_gpus", "trainer_gpu"));
            }
            derived("trainers", r.numGpus(), "one trainer per GPU (num_gpus)");
            return new TrainerCount(r.numGpus(), List.of("num_gpus"));
        }
        if (r.trainerCpu() != null) {
            if (r.numCpus() == null) {
                derived("trainers", 1, "one trainer: trainer_cpu given without num_cpus");
                return new TrainerCount(1, List.of("trainer_cpu"));
            }
            requireMultiple(r.numCpus(), "num_cpus", r.trainerCpu(), "trainer_cpu");
            int value = Math.max(1, r.numCpus() / r.trainerCpu());
            derived("trainers", value, "num_cpus / trainer_cpu");
            return new TrainerCount(value, List.of("num_cpus", "trainer_cpu"));
        }
        int cpus = numCpus();
        derived("trainers", cpus, "one trainer per CPU (num_cpus), as no GPUs are asked for");
        return new TrainerCount(cpus, List.of("num_cpus"));
    }

    private int gpusPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (r.trainerGpu() != null) {
            boolean countCameFromGpus = count.source().contains("trainer_gpu");
            if (r.numGpus() != null && !countCameFromGpus && trainers * r.trainerGpu() != r.numGpus()) {
                conflict(withTrainers(count, "trainer_gpu", "num_gpus"), r.numGpus(),
                        "trainers (%d) x trainer_gpu (%d) = %d, but num_gpus is %d"
                                .formatted(trainers, r.trainerGpu(), trainers * r.trainerGpu(), r.numGpus()));
            }
            derived("trainer_gpu", r.trainerGpu(), "given");
            return r.trainerGpu();
        }
        if (r.numGpus() == null || r.numGpus() == 0) {
            derived("trainer_gpu", 0, "no GPUs asked for");
            return 0;
        }
        if (r.numGpus() % trainers != 0) {
            conflict(withTrainers(count, "num_gpus"), r.numGpus(),
                    "num_gpus (%d) cannot be split evenly over %d trainers; GPUs are not shared"
                            .formatted(r.numGpus(), trainers));
        }
        int value = r.numGpus() / trainers;
        derived("trainer_gpu", value, "num_gpus / trainers");
        return value;
    }

    private Cpu cpuPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (r.trainerCpu() != null) {
            boolean countCameFromCpus = count.source().contains("trainer_cpu");
            if (r.numCpus() != null && !countCameFromCpus && trainers * r.trainerCpu() != r.numCpus()) {
                conflict(withTrainers(count, "trainer_cpu", "num_cpus"), r.numCpus(),
                        "trainers (%d) x trainer_cpu (%d) = %d, but num_cpus is %d"
                                .formatted(trainers, r.trainerCpu(), trainers * r.trainerCpu(), r.numCpus()));
            }
            derived("trainer_cpu", r.trainerCpu(), "given");
            return Cpu.cores(r.trainerCpu());
        }
        Cpu value = Cpu.cores(numCpus()).dividedBy(trainers);
        derived("trainer_cpu", value, "num_cpus / trainers" + (value.millis() % 1000 == 0 ? "" : ", in millicores"));
        return value;
    }

    private Memory memoryPerTrainer(TrainerCount count) {
        int trainers = count.value();
        if (r.trainerMem() != null) {
            if (r.memory() != null && r.trainerMem().times(trainers).compareTo(r.memory()) != 0) {
                conflict(withTrainers(count, "trainer_mem", "memory"), r.memory().toString(),
                        "trainers (%d) x trainer_mem (%s) = %s, but memory is %s".formatted(
                                trainers, r.trainerMem(), r.trainerMem().times(trainers), r.memory()));
            }
            derived("trainer_mem", r.trainerMem(), "given");
            return r.trainerMem();
        }
        Memory total = r.memory() != null ? r.memory() : defaults.memory();
        Memory value = total.dividedBy(trainers);
        if (value.compareTo(SMALLEST_SHARE) < 0) {
            conflict(withTrainers(count, "memory"), total.toString(),
                    "memory (%s) split over %d trainers leaves less than %s each".formatted(total, trainers, SMALLEST_SHARE));
        }
        derived("trainer_mem", value, "memory / trainers"
                + (value.times(trainers).equals(total) ? "" : ", rounded down to whole Mi"));
        return value;
    }

    private int noPservers() {
        derived("pservers", 0, "collective mode: trainers only");
        return 0;
    }

    private int pservers(int trainers) {
        if (r.pservers() != null) {
            derived("pservers", r.pservers(), "given");
            return r.pservers();
        }
        derived("pservers", trainers, "one pserver per trainer");
        return trainers;
    }

    private Cpu pserverCpu() {
        int cores = r.pserverCpu() != null ? r.pserverCpu() : defaults.pserverCpu();
        derived("pserver_cpu", cores, r.pserverCpu() != null ? "given" : "default");
        return Cpu.cores(cores);
    }

    private Memory pserverMemory() {
        Memory value = r.pserverMem() != null ? r.pserverMem() : defaults.pserverMem();
        derived("pserver_mem", value, r.pserverMem() != null ? "given" : "default");
        return value;
    }

    private boolean useGpu(long totalGpus) {
        boolean asked = totalGpus > 0;
        if (r.useGpu() == null) {
            derived("use_gpu", asked, asked ? "GPUs are asked for" : "no GPUs are asked for");
            return asked;
        }
        if (r.useGpu() != asked) {
            warnings.add(r.useGpu()
                    ? "use_gpu is true but the job asks for no GPUs: Paddle will look for a GPU it does not have"
                    : "use_gpu is false but the job asks for %d GPUs: they will sit idle".formatted(totalGpus));
        }
        derived("use_gpu", r.useGpu(), "given");
        return r.useGpu();
    }

    private int numCpus() {
        return r.numCpus() != null ? r.numCpus() : defaults.numCpus();
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

package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a request into a {@link JobPlan}: a pure function of the request, the operator's policy
 * and the backend's site. It checks the rules that span fields (contradictions, limits); each
 * field's own syntax is checked before a request gets here.
 *
 * <p>Beginner rule: one trainer per GPU, else one per CPU; the job's GPUs, CPUs and memory are
 * split evenly over the trainers; one pserver per trainer. Any advanced field overrides the
 * number it names and the rest are still derived from it.
 */
public final class JobPlanner {

    private final PlanningPolicy policy;

    public JobPlanner(PlanningPolicy policy) {
        this.policy = policy;
    }

    /**
     * The same planner with no per-job ceilings: for plans recovered from jobs that were admitted
     * under the limits of their day, which stay readable when an operator lowers them.
     */
    public JobPlanner withoutLimits() {
        int many = Integer.MAX_VALUE;
        return new JobPlanner(new PlanningPolicy(policy.defaults(),
                new PlanningPolicy.Limits(many, many, many, many, new Memory(Long.MAX_VALUE), many,
                        java.time.Duration.ofSeconds(Long.MAX_VALUE)), policy.gpu(),
                policy.collective()));
    }

    /** @throws InvalidJobRequestException naming every rule the request breaks */
    public JobPlan plan(JobRequest request, String namespace, Site site) {
        List<Violation> violations = new ArrayList<>(portRangeViolations(request));
        violations.addAll(ModeRules.check(request));
        violations.addAll(SecretEnvRules.check(request.code()));
        violations.addAll(PlacementRules.check(request.placement()));
        violations.addAll(RestartRules.check(request.lifecycle(), policy.limits()));
        try {
            Topology topology = new TopologyRules(request, policy).derive();
            violations.addAll(topology.violations());
            violations.addAll(new LimitRules(policy.limits()).check(topology));
            violations.addAll(LauncherRules.check(request, topology));
            if (violations.isEmpty()) {
                return assemble(request, namespace, site, topology).plusWarnings(LauncherRules.warnings(request));
            }
        } catch (ArithmeticException overflow) {
            // Counts times sizes past what a long holds: far beyond any limit, so say that.
            violations.add(new Violation(List.of("trainers", "pservers", "memory"),
                    "the job's resources add up to more than can be counted; it is far beyond every limit", null));
        }
        throw new InvalidJobRequestException(violations, request);
    }

    /**
     * The same job re-planned on other ports, for a backend that allocates them itself (on one
     * machine, two jobs may not share a port). The spec stays as the user gave it.
     */
    public JobPlan onPorts(JobPlan plan, int firstPort, Site site) {
        return plan(plan.spec().withPort(firstPort), plan.namespace(), site)
                .withSpec(plan.spec())
                .plusDerivation(new Derivation("port", Integer.toString(firstPort),
                        "allocated by the backend, so that jobs on one machine never share a port"));
    }

    private JobPlan assemble(JobRequest request, String namespace, Site site, Topology t) {
        var defaults = policy.defaults();
        Ports ports = new Ports(
                orDefault(request.topology().port(), defaults.port()),
                orDefault(request.topology().portsNum(), defaults.portsNum()),
                orDefault(request.topology().portsNumForSparse(), defaults.portsNumForSparse()));
        String trainerEntryPoint = request.code().entryPoint();
        String pserverEntryPoint = request.code().pserverEntryPoint() != null ? request.code().pserverEntryPoint() : trainerEntryPoint;
        RolePlan pservers = new RolePlan(Role.PSERVER, t.pservers(), pserverEntryPoint, t.perPserver());
        RolePlan trainers = new RolePlan(Role.TRAINER, t.trainers(), trainerEntryPoint, t.perTrainer());

        String job = request.name();
        var wiring = new PaddleEnv.Wiring(request.topology().modeOrDefault(), job, site.dataPath(namespace, job),
                site.checkpointPath(namespace, job),
                PaddleEnv.hosts(site, namespace, job, Role.PSERVER, t.pservers()),
                PaddleEnv.hosts(site, namespace, job, Role.TRAINER, t.trainers()),
                ports, t.devicesPerTrainer(), t.useGpu(),
                t.perTrainer().cpu().wholeCoresAtLeastOne(), t.perPserver().cpu().wholeCoresAtLeastOne(),
                LauncherCommand.find(trainerEntryPoint).isPresent());
        List<Replica> replicas = new ArrayList<>();
        for (RolePlan role : List.of(pservers, trainers)) {
            List<String> hosts = role.role() == Role.PSERVER ? wiring.pserverHosts() : wiring.trainerHosts();
            for (int i = 0; i < role.count(); i++) {
                replicas.add(new Replica(role.role(), i, hosts.get(i),
                        PaddleEnv.of(wiring, role.role(), i, request.code().envOf(role.role()))));
            }
        }
        List<Derivation> derivations = new ArrayList<>(t.derivations());
        if (wiring.mode() == JobMode.COLLECTIVE && wiring.trainersLaunch()) {
            derivations.add(new Derivation("env", "no " + PaddleEnv.TRAINER_ENDPOINTS, "entry_point starts "
                    + "paddle.distributed.launch, which would count the distinct hosts in " + PaddleEnv.TRAINER_ENDPOINTS
                    + " as its nodes (trainers sharing a node would each train alone); it reads PADDLE_MASTER, "
                    + "PADDLE_NNODES, POD_IP and PADDLE_TRAINER_ID instead and sets the list for its workers"));
        }
        String tensorBoard = request.code().envOf(Role.TRAINER).get(PaddleEnv.TENSORBOARD_DIR);
        if (tensorBoard != null && !tensorBoard.isBlank()) {
            derivations.add(new Derivation("metrics", "TensorBoard scalars from " + tensorBoard, "env names "
                    + PaddleEnv.TENSORBOARD_DIR + ": each trainer's entry point runs under a reader that reports the "
                    + "scalars of the TensorBoard and VisualDL event files written there as metrics (docs/metrics.md)"));
        }
        String image = request.code().image();
        boolean collective = request.topology().modeOrDefault() == JobMode.COLLECTIVE;
        String collectiveImage = t.useGpu() ? policy.collective().gpuImage() : policy.collective().image();
        if (image == null && collective && collectiveImage != null) {
            image = collectiveImage;
            derivations.add(new Derivation("image", image, t.useGpu()
                    ? "the collective GPU image, Paddle 3 (paddlejobs.defaults.collective-gpu-image)"
                    : "the collective image, Paddle 3 (paddlejobs.defaults.collective-image)"));
        } else if (image == null && t.useGpu() && policy.gpu().image() != null) {
            image = policy.gpu().image();
            derivations.add(new Derivation("image", image, "the GPU image, as GPUs are used (paddlejobs.defaults.gpu-image)"));
        } else if (image == null) {
            image = defaults.image();
        }
        return new JobPlan(job, namespace, image, request, pservers, trainers, ports, t.useGpu(),
                pservers.total().plus(trainers.total()), replicas, derivations, t.warnings());
    }

    private List<Violation> portRangeViolations(JobRequest request) {
        var defaults = policy.defaults();
        long last = (long) orDefault(request.topology().port(), defaults.port())
                + orDefault(request.topology().portsNum(), defaults.portsNum())
                + orDefault(request.topology().portsNumForSparse(), defaults.portsNumForSparse()) - 1;
        if (last <= 65535) {
            return List.of();
        }
        return List.of(new Violation(List.of("port", "ports_num", "ports_num_for_sparse"),
                "port + ports_num + ports_num_for_sparse - 1 is " + last + ", past the last port 65535",
                request.topology().port()));
    }

    static int orDefault(Integer value, int fallback) {
        return value != null ? value : fallback;
    }
}

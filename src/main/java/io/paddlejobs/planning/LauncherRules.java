package io.paddlejobs.planning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What an entry point that starts {@code paddle.distributed.launch} may ask of it (docs/environment.md).
 *
 * <p>In a collective job each trainer is one node to the launcher: it runs one launcher, which finds the
 * others through the injected environment and starts one worker per GPU of its trainer (one on CPU), so a
 * program sees {@code nranks = trainers x workers}. A flag that says otherwise ({@code --nnodes 3} in a
 * two-trainer job) would be overridden by that environment or leave the launcher waiting for nodes that
 * never come: it is refused, naming the flag. In a ps job every replica's launcher, pservers' included,
 * takes the trainers' endpoints for a collective group, so the pservers never start and the job hangs
 * (trainer 0's launcher serves its rendezvous on all addresses of the job's port, so even the pservers'
 * listen check is answered): that is refused too, with the fix.
 */
final class LauncherRules {

    private static final String FIELD = "entry_point";
    private static final Set<String> DEVICE_FLAGS = Set.of("--devices", "--gpus", "--xpus", "--npus");
    private static final Set<String> PS_FLAGS = Set.of("--server_num", "--trainer_num", "--servers", "--trainers");

    private LauncherRules() {
    }

    static List<Violation> check(JobRequest request, Topology topology) {
        if (request.topology().modeOrDefault() == JobMode.PS) {
            String pservers = request.code().pserverEntryPoint();
            boolean launches = LauncherCommand.find(request.code().entryPoint()).isPresent()
                    || pservers != null && LauncherCommand.find(pservers).isPresent();
            return !launches ? List.of() : List.of(Violation.of(FIELD, request.code().entryPoint(), "entry_point runs paddle.distributed.launch "
                    + "in a ps job: each replica's launcher, the pservers' too, would take PADDLE_TRAINER_ENDPOINTS for a "
                    + "collective group, and the pservers would never start. Drop the launcher and run the script itself: "
                    + "fleet.init() reads the environment"));
        }
        Optional<LauncherCommand> launcher = LauncherCommand.find(request.code().entryPoint());
        if (launcher.isEmpty()) {
            return List.of();
        }
        Map<String, String> flags = launcher.get().flags();
        List<Violation> violations = new ArrayList<>();
        String nnodes = flags.get("--nnodes");
        if (nnodes != null && !nnodes.equals(Integer.toString(topology.trainers()))) {
            violations.add(violation(request, "--nnodes " + nnodes, "each of the job's " + topology.trainers()
                    + " trainers runs one launcher, which is one node: drop --nnodes, or make it "
                    + topology.trainers() + " (trainers)"));
        }
        int gpus = topology.useGpu() ? topology.perTrainer().gpu() : 0;
        String perNode = flags.get("--nproc_per_node");
        if (gpus > 0 && perNode != null && !perNode.equals(Integer.toString(gpus))) {
            violations.add(violation(request, "--nproc_per_node " + perNode, "each trainer has " + gpus
                    + " GPUs and the launcher starts one worker per GPU: drop --nproc_per_node, or make it " + gpus));
        }
        for (String flag : DEVICE_FLAGS) {
            String devices = flags.get(flag);
            if (devices != null && devices.split(",").length != gpus) {
                violations.add(violation(request, flag + " " + devices, gpus == 0
                        ? "the job's trainers have no GPUs: drop " + flag
                        : "each trainer is given its own " + gpus + " GPUs (CUDA_VISIBLE_DEVICES), and the launcher "
                                + "uses them all: drop " + flag));
            }
        }
        boolean psMode = "ps".equals(flags.get("--run_mode")) || PS_FLAGS.stream().anyMatch(flags::containsKey);
        if (psMode) {
            violations.add(violation(request, PS_FLAGS.stream().filter(flags::containsKey).findFirst().orElse("--run_mode ps"),
                    "a collective job has trainers only; for pservers use mode ps, without the launcher"));
        }
        return violations;
    }

    static List<String> warnings(JobRequest request) {
        Optional<LauncherCommand> launcher = LauncherCommand.find(request.code().entryPoint());
        if (launcher.isEmpty() || request.topology().modeOrDefault() != JobMode.COLLECTIVE) {
            return List.of();
        }
        List<String> warnings = new ArrayList<>();
        if (launcher.get().flags().containsKey("--master")) {
            warnings.add("entry_point gives paddle.distributed.launch --master " + launcher.get().flags().get("--master")
                    + ": the launcher takes PADDLE_MASTER (trainer 0) instead");
        }
        return warnings;
    }

    private static Violation violation(JobRequest request, String flag, String rule) {
        return Violation.of(FIELD, request.code().entryPoint(),
                "paddle.distributed.launch " + flag + " contradicts the plan: " + rule);
    }
}

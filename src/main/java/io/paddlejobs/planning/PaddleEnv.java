package io.paddlejobs.planning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The environment that wires replicas together (docs/environment.md): in {@code ps} mode for three
 * generations of Paddle at once, in {@code collective} mode for Paddle 3's data parallelism.
 * Every list is in index order and the same on every replica.
 */
public final class PaddleEnv {

    // Generation 1: the names from the original design discussion.
    public static final String PSERVERS = "PADDLE_PSERVERS";
    public static final String PORT = "PADDLE_PORT";
    public static final String PORTS_NUM = "PADDLE_PORTS_NUM";
    public static final String PORTS_NUM_FOR_SPARSE = "PADDLE_PORTS_NUM_FOR_SPARSE";
    public static final String NUM_GRADIENT_SERVERS = "PADDLE_NUM_GRADIENT_SERVERS";
    public static final String TRAINER_ID = "PADDLE_TRAINER_ID";
    public static final String TRAINER_COUNT = "PADDLE_TRAINER_COUNT";
    public static final String USE_GPU = "PADDLE_USE_GPU";

    /**
     * Paddle v2's {@code paddle.init()} turns every {@code PADDLE_INIT_<FLAG>} into a command-line
     * flag and aborts on one it does not know, so exactly these are repeated with that prefix.
     */
    public static final String V2_PREFIX = "PADDLE_INIT_";
    public static final List<String> V2_FLAGS = List.of(
            PSERVERS, PORT, PORTS_NUM, PORTS_NUM_FOR_SPARSE, NUM_GRADIENT_SERVERS, TRAINER_ID, TRAINER_COUNT, USE_GPU);

    // Generation 3: Paddle 2.x fleet, parameter-server mode (PaddleCloudRoleMaker).
    public static final String TRAINING_ROLE = "TRAINING_ROLE";
    public static final String PADDLE_TRAINING_ROLE = "PADDLE_TRAINING_ROLE";
    public static final String PSERVERS_IP_PORT_LIST = "PADDLE_PSERVERS_IP_PORT_LIST";
    public static final String TRAINER_ENDPOINTS = "PADDLE_TRAINER_ENDPOINTS";
    public static final String TRAINERS_NUM = "PADDLE_TRAINERS_NUM";
    public static final String POD_IP = "POD_IP";

    // Generation 4: Paddle 3.x collective mode (init_parallel_env, fleet.init(is_collective=True)).
    public static final String CURRENT_ENDPOINT = "PADDLE_CURRENT_ENDPOINT";
    /** The store's {@code host:port}: Paddle 3.3's C++ store reads this, not MASTER_ADDR/MASTER_PORT. */
    public static final String MASTER = "PADDLE_MASTER";
    public static final String DISTRI_BACKEND = "PADDLE_DISTRI_BACKEND";

    /*
     * Collective mode also speaks for the programs that start Paddle's launcher themselves. Each says
     * the same as the names above, in its own words, so that every reader meets at one endpoint:
     * paddle.distributed.launch reads POD_IP (which host it is: trainer 0's launcher serves the
     * rendezvous only when the master's host is its own), PADDLE_NNODES and PADDLE_JOB_ID (Kubeflow's
     * PaddleJob sets both); Paddle 3's training CLIs (paddleformers-cli, paddlefleet-cli) read NNODES,
     * RANK, MASTER_ADDR and MASTER_PORT, delete PADDLE_TRAINER_*, then start the launcher with them.
     */
    public static final String NNODES = "NNODES";
    public static final String RANK = "RANK";
    public static final String MASTER_ADDR = "MASTER_ADDR";
    public static final String MASTER_PORT = "MASTER_PORT";
    public static final String PADDLE_NNODES = "PADDLE_NNODES";
    public static final String PADDLE_JOB_ID = "PADDLE_JOB_ID";

    /**
     * Not injected: a job's {@code env} sets it to the directory its trainers write TensorBoard or VisualDL
     * event files to, and each trainer then runs under a reader that charts their scalars (docs/metrics.md).
     */
    public static final String TENSORBOARD_DIR = "PADDLE_JOB_TENSORBOARD_DIR";

    /**
     * Threads per process, from the replica's CPU share: without them every Paddle process starts
     * a thread per core of the machine. Defaults only: a user's own value wins.
     */
    public static final String OMP_NUM_THREADS = "OMP_NUM_THREADS";
    public static final String CPU_NUM = "CPU_NUM";

    // The platform's own.
    public static final String JOB_NAME = "PADDLE_JOB_NAME";
    public static final String JOB_DATA = "PADDLE_JOB_DATA";
    /**
     * How many times the job was started again before this attempt (0 on the first run): the plan says 0,
     * and each backend sets the attempt's own number as it starts the replicas.
     */
    public static final String RESTART_COUNT = "PADDLE_JOB_RESTART_COUNT";
    /** Where a program keeps checkpoints to resume from: one directory per job, the same across attempts. */
    public static final String CHECKPOINT_DIR = "PADDLE_JOB_CHECKPOINT_DIR";

    /** Names a user's {@code env} may not set: every name injected here, on any role. */
    public static final Set<String> RESERVED = Set.of(
            PSERVERS, PORT, PORTS_NUM, PORTS_NUM_FOR_SPARSE, NUM_GRADIENT_SERVERS, TRAINER_ID, TRAINER_COUNT, USE_GPU,
            TRAINING_ROLE, PADDLE_TRAINING_ROLE, PSERVERS_IP_PORT_LIST, TRAINER_ENDPOINTS, TRAINERS_NUM, POD_IP,
            CURRENT_ENDPOINT, MASTER, DISTRI_BACKEND, JOB_NAME, JOB_DATA, RESTART_COUNT, CHECKPOINT_DIR,
            NNODES, RANK, MASTER_ADDR, MASTER_PORT, PADDLE_NNODES, PADDLE_JOB_ID);

    private PaddleEnv() {
    }

    /** Whether a user may not set {@code name}: injected names, and any v2 flag (unknown ones abort Paddle v2). */
    public static boolean isReserved(String name) {
        return RESERVED.contains(name) || name.startsWith(V2_PREFIX);
    }

    /**
     * The facts every replica's environment is computed from.
     *
     * @param trainerThreads whole cores of one trainer, at least 1; {@code pserverThreads} likewise
     * @param trainersLaunch whether the trainers' entry point starts Paddle's launcher ({@link LauncherCommand})
     */
    record Wiring(JobMode mode, String job, String dataPath, String checkpointPath, List<String> pserverHosts,
                  List<String> trainerHosts,
                  Ports ports, int trainerCount, boolean useGpu, int trainerThreads, int pserverThreads,
                  boolean trainersLaunch) {
    }

    /** The injected environment of one replica, then the user's own variables. */
    static Map<String, String> of(Wiring w, Role role, int index, Map<String, String> userEnv) {
        Map<String, String> env = switch (w.mode()) {
            case PS -> parameterServer(w, role, index);
            case COLLECTIVE -> collective(w, index);
        };
        env.put(JOB_NAME, w.job());
        env.put(JOB_DATA, w.dataPath());
        env.put(CHECKPOINT_DIR, w.checkpointPath());
        env.put(RESTART_COUNT, "0");
        String threads = Integer.toString(role == Role.PSERVER ? w.pserverThreads() : w.trainerThreads());
        env.put(OMP_NUM_THREADS, threads);
        env.put(CPU_NUM, threads);
        env.putAll(userEnv);
        return env;
    }

    /**
     * What Paddle 3's init_parallel_env() with gloo really reads (checked against the 3.3.1 wheel), then the
     * same facts as the launcher and Paddle 3's CLIs read them: one master, one count, one rank per trainer.
     *
     * <p>Trainers that start the launcher get no {@code PADDLE_TRAINER_ENDPOINTS}: given that list, the
     * launcher (3.3.1's {@code collective_compatible} plugin) counts its nodes as the distinct hosts in it,
     * so trainers that share a host (two Slurm tasks on one node) would each train alone. Without it the
     * launcher reads {@code PADDLE_MASTER}, {@code PADDLE_NNODES}, {@code POD_IP} and {@code PADDLE_TRAINER_ID}
     * (its node rank), right wherever the trainers are, and writes the list for its own workers.
     */
    private static Map<String, String> collective(Wiring w, int index) {
        List<String> endpoints = endpointList(w.trainerHosts(), w.ports().first());
        Map<String, String> env = new LinkedHashMap<>();
        env.put(TRAINER_ID, Integer.toString(index));
        env.put(TRAINERS_NUM, Integer.toString(endpoints.size()));
        if (!w.trainersLaunch()) {
            env.put(TRAINER_ENDPOINTS, String.join(",", endpoints));
        }
        env.put(CURRENT_ENDPOINT, endpoints.get(index));
        env.put(PADDLE_TRAINING_ROLE, Role.TRAINER.name());
        // Rank 0 serves the store that the ranks meet at, on its own endpoint.
        env.put(MASTER, endpoints.get(0));
        // Paddle's "auto" on a CPU-only wheel does not make a process group that DataParallel can use.
        env.put(DISTRI_BACKEND, w.useGpu() ? "nccl" : "gloo");
        String nodes = Integer.toString(endpoints.size());
        env.put(POD_IP, w.trainerHosts().get(index));
        env.put(PADDLE_NNODES, nodes);
        env.put(PADDLE_JOB_ID, w.job());
        env.put(NNODES, nodes);
        env.put(RANK, Integer.toString(index));
        env.put(MASTER_ADDR, w.trainerHosts().get(0));
        env.put(MASTER_PORT, Integer.toString(w.ports().first()));
        return env;
    }

    private static Map<String, String> parameterServer(Wiring w, Role role, int index) {
        Map<String, String> wired = new LinkedHashMap<>();
        wired.put(PSERVERS, String.join(",", w.pserverHosts()));
        wired.put(PORT, Integer.toString(w.ports().first()));
        wired.put(PORTS_NUM, Integer.toString(w.ports().num()));
        wired.put(PORTS_NUM_FOR_SPARSE, Integer.toString(w.ports().numForSparse()));
        wired.put(NUM_GRADIENT_SERVERS, Integer.toString(w.trainerHosts().size()));
        if (role == Role.TRAINER) {
            wired.put(TRAINER_ID, Integer.toString(index));
        }
        wired.put(TRAINER_COUNT, Integer.toString(w.trainerCount()));
        wired.put(USE_GPU, Boolean.toString(w.useGpu()));

        Map<String, String> env = new LinkedHashMap<>(wired);
        wired.forEach((name, value) -> env.put(V2_PREFIX + name.substring("PADDLE_".length()), value));

        String roleName = role.name();
        env.put(TRAINING_ROLE, roleName);
        env.put(PADDLE_TRAINING_ROLE, roleName);
        env.put(PSERVERS_IP_PORT_LIST, endpoints(w.pserverHosts(), w.ports().first()));
        env.put(TRAINER_ENDPOINTS, endpoints(w.trainerHosts(), w.ports().first()));
        env.put(TRAINERS_NUM, Integer.toString(w.trainerHosts().size()));
        List<String> ownRole = role == Role.PSERVER ? w.pserverHosts() : w.trainerHosts();
        env.put(POD_IP, ownRole.get(index));
        return env;
    }

    private static String endpoints(List<String> hosts, int port) {
        return String.join(",", endpointList(hosts, port));
    }

    private static List<String> endpointList(List<String> hosts, int port) {
        return hosts.stream().map(host -> host + ":" + port).toList();
    }

    static List<String> hosts(Site site, String namespace, String job, Role role, int count) {
        return IntStream.range(0, count).mapToObj(i -> site.host(namespace, job, role, i)).toList();
    }
}

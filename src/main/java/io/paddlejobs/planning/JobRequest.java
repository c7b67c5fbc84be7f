package io.paddlejobs.planning;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a user asked for, in a few named parts. On the wire the request is one flat document; here
 * each field lives in the part it is about, under its wire name in camelCase ({@code trainer_mem}
 * is {@code compute().trainerMem()}; {@code package}, a Java keyword, is {@code code().codePackage()}),
 * so that a new field is added to one part and read where that part is read.
 *
 * <p>A {@code null} number, memory or duration means "not given": the planner derives it, and only
 * given values can contradict each other. Parts are never {@code null}: a part nobody filled in
 * holds only "not given" values.
 */
public record JobRequest(String name, Code code, Topology topology, Compute compute, Placement placement,
                         Lifecycle lifecycle, Notifications notifications) {

    public JobRequest {
        code = code == null ? Code.NONE : code;
        topology = topology == null ? Topology.NONE : topology;
        compute = compute == null ? Compute.NONE : compute;
        placement = placement == null ? Placement.NONE : placement;
        lifecycle = lifecycle == null ? Lifecycle.NONE : lifecycle;
        notifications = notifications == null ? Notifications.NONE : notifications;
    }

    /**
     * What runs: the commands, the image they run in, the uploaded code they start in, and their
     * extra environment, for every replica or for one role.
     *
     * @param pserverEntryPoint the pservers' command where they start differently; {@code null}: {@link #entryPoint}
     * @param pserverImage      the pservers' image where it differs; {@code null}: the job's image
     * @param codePackage       the request's {@code package}: the uploaded code the replicas start in
     * @param env               every replica's extra variables
     * @param pserverEnv        the pservers' variables besides (and over) {@code env}
     * @param trainerEnv        the trainers' variables besides (and over) {@code env}
     * @param envFromSecrets    variables whose values are secrets of the job's namespace, by reference only: the
     *                          values reach the replicas' environment and nothing else
     */
    public record Code(String entryPoint, String pserverEntryPoint, String image, String pserverImage,
                       String codePackage, Map<String, String> env, Map<String, String> pserverEnv,
                       Map<String, String> trainerEnv, Map<String, SecretKey> envFromSecrets) {

        static final Code NONE = new Code(null, null, null, null, null, null, null, null, null);

        public Code {
            env = env == null ? Map.of() : Map.copyOf(env);
            pserverEnv = pserverEnv == null ? Map.of() : Map.copyOf(pserverEnv);
            trainerEnv = trainerEnv == null ? Map.of() : Map.copyOf(trainerEnv);
            envFromSecrets = envFromSecrets == null ? Map.of() : Map.copyOf(envFromSecrets);
        }

        /** The extra variables of a replica of this role: {@code env}, then the role's own over it. */
        public Map<String, String> envOf(Role role) {
            Map<String, String> own = role == Role.PSERVER ? pserverEnv : trainerEnv;
            if (own.isEmpty()) {
                return env;
            }
            Map<String, String> merged = new LinkedHashMap<>(env);
            merged.putAll(own);
            return merged;
        }
    }

    /**
     * One key of a secret of the job's namespace (a Kubernetes Secret, or the operator's secret store on
     * the local and Slurm backends). Only the reference is ever kept or shown.
     */
    public record SecretKey(String secret, String key) {

        @Override
        public String toString() {
            return secret + "/" + key;
        }
    }

    /**
     * How many replicas of each role, and how the pservers listen.
     *
     * @param mode {@code null}: a parameter-server job
     */
    public record Topology(JobMode mode, Integer trainers, Integer pservers, Integer port, Integer portsNum,
                           Integer portsNumForSparse) {

        static final Topology NONE = new Topology(null, null, null, null, null, null);

        /** The mode asked for, or the parameter-server default. */
        public JobMode modeOrDefault() {
            return mode != null ? mode : JobMode.PS;
        }
    }

    /**
     * What the job is given: either for the whole job (the beginner's {@code num_gpus}, {@code num_cpus},
     * {@code memory}) or per replica of each role (the advanced fields), and whether it uses GPUs.
     */
    public record Compute(Integer numGpus, Integer numCpus, Memory memory, Integer trainerCpu, Integer trainerGpu,
                          Memory trainerMem, Integer pserverCpu, Memory pserverMem, Boolean useGpu, Memory shmSize) {

        static final Compute NONE = new Compute(null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * How the job is told apart from and placed among other jobs: its labels, by which lists are
     * filtered, the cluster's queue and priority it waits under, and on Slurm the partition, account
     * and QOS it is submitted to (each backend reads its own and ignores the others').
     *
     * @param queue     the scheduling queue (a Kueue LocalQueue on the kubernetes backend); {@code null}:
     *                  the namespace's default, if the operator set one
     * @param priority  the queue's priority class (a Kueue WorkloadPriorityClass); {@code null}: the queue's default
     * @param account   the Slurm account the job is charged to; {@code null}: the backend's default
     * @param partition the Slurm partition; {@code null}: the backend's default
     * @param qos       the Slurm quality of service; {@code null}: the account's default
     * @param nodeSelector node labels every pod's node must have (kubernetes backend)
     * @param tolerations  the taints every pod tolerates (kubernetes backend)
     * @param nodeAffinity requirements on node labels every pod's node must meet, all of them (kubernetes backend)
     * @param volumes      claims and config maps of the namespace mounted read-only (kubernetes backend)
     */
    public record Placement(Map<String, String> labels, String queue, String priority, String account,
                            String partition, String qos, Map<String, String> nodeSelector,
                            List<Toleration> tolerations, List<NodeRequirement> nodeAffinity, List<Volume> volumes) {

        static final Placement NONE = new Placement(null, null, null, null, null, null, null, null, null, null);

        public Placement {
            labels = labels == null ? Map.of() : Map.copyOf(labels);
            nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
            tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
            nodeAffinity = nodeAffinity == null ? List.of() : List.copyOf(nodeAffinity);
            volumes = volumes == null ? List.of() : List.copyOf(volumes);
        }

        /** Whether the request says where on a cluster its pods go, or what they mount, beyond labels and queues. */
        public boolean placesPods() {
            return !nodeSelector.isEmpty() || !tolerations.isEmpty() || !nodeAffinity.isEmpty() || !volumes.isEmpty();
        }
    }

    /**
     * A taint the job's pods tolerate, as Kubernetes writes one.
     *
     * @param operator {@code Equal} (with a value) or {@code Exists}; {@code null}: {@code Equal}
     * @param value    {@code null} with {@code Exists}
     * @param effect   {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}; {@code null}: every effect
     */
    public record Toleration(String key, String operator, String value, String effect) {

        /** {@code key=value:Effect}, {@code key:Effect}, {@code key=value} or {@code key}: as operators list them. */
        @Override
        public String toString() {
            return key + (value != null ? "=" + value : "") + (effect != null ? ":" + effect : "");
        }
    }

    /**
     * A requirement on a node label, as a node selector term's match expression.
     *
     * @param operator {@code In}, {@code NotIn}, {@code Exists} or {@code DoesNotExist}
     * @param values   the values {@code In} and {@code NotIn} name; empty for the others
     */
    public record NodeRequirement(String key, String operator, List<String> values) {

        public NodeRequirement {
            values = values == null ? List.of() : List.copyOf(values);
        }
    }

    /**
     * An extra volume of the job's namespace, mounted read-only in every replica: a persistent volume
     * claim or a config map, one of the two.
     *
     * @param claim     a PersistentVolumeClaim's name, or {@code null}
     * @param configMap a ConfigMap's name, or {@code null}
     */
    public record Volume(String claim, String configMap, String mountPath) {

        /** {@code pvc/<name>} or {@code configmap/<name>}: as operators allow them, and as kubectl names them. */
        public String source() {
            return claim != null ? "pvc/" + claim : "configmap/" + configMap;
        }
    }

    /**
     * How long the job may run, and what happens when it fails or stalls.
     *
     * @param maxRunTime   how long the trainers may run before the job is stopped and fails; {@code null}: no limit
     * @param maxRestarts  how many times the whole job is started again after a failure; {@code null}: never
     * @param restartOn    which failures are retried; {@code null}: any, when there are restarts to spend
     * @param stallTimeout how long no trainer may print a line or report a metric before the job is stalled;
     *                     {@code null}: never
     * @param debugHold    how long a failed attempt is held, its replicas kept to look inside, before the job
     *                     restarts or fails as it would have; {@code null}: not held
     */
    public record Lifecycle(Duration maxRunTime, Integer maxRestarts, RestartOn restartOn, Duration stallTimeout,
                            Duration debugHold) {

        static final Lifecycle NONE = new Lifecycle(null, null, null, null, null);

        /** A lifecycle that holds no failed attempt. */
        public Lifecycle(Duration maxRunTime, Integer maxRestarts, RestartOn restartOn, Duration stallTimeout) {
            this(maxRunTime, maxRestarts, restartOn, stallTimeout, null);
        }

        /** How many restarts the job may spend; 0 when none were asked for. */
        public int maxRestartsOrDefault() {
            return maxRestarts != null ? maxRestarts : 0;
        }

        /** Which failures are retried: as asked, else any. */
        public RestartOn restartOnOrDefault() {
            return restartOn != null ? restartOn : RestartOn.ANY;
        }
    }

    /**
     * Who is told of the job's life: the webhooks of its {@code notify} list (besides those the
     * operator subscribed for its namespace).
     *
     * @param webhooks the request's {@code notify} ({@code notify}, a method of every object, cannot name a component)
     */
    public record Notifications(List<Notify> webhooks) {

        static final Notifications NONE = new Notifications(null);

        public Notifications {
            webhooks = webhooks == null ? List.of() : List.copyOf(webhooks);
        }
    }

    /**
     * One webhook: where it is sent, and of what.
     *
     * @param events {@code null}: {@link JobEvent#FINAL}, how the job ended
     */
    public record Notify(String url, List<JobEvent> events) {

        public Notify {
            events = events == null ? null : List.copyOf(events);
        }

        /** The events asked for, else how the job ended. */
        public List<JobEvent> eventsOrDefault() {
            return events != null ? events : JobEvent.FINAL;
        }
    }

    /**
     * A number or quantity field's value as the user gave it, by its wire name; {@code null} where it
     * was not given (the planner derives it) or is not such a field.
     */
    public Object given(String field) {
        return switch (field) {
            case "num_gpus" -> compute.numGpus();
            case "num_cpus" -> compute.numCpus();
            case "memory" -> text(compute.memory());
            case "trainer_cpu" -> compute.trainerCpu();
            case "trainer_gpu" -> compute.trainerGpu();
            case "trainer_mem" -> text(compute.trainerMem());
            case "pserver_cpu" -> compute.pserverCpu();
            case "pserver_mem" -> text(compute.pserverMem());
            case "use_gpu" -> compute.useGpu();
            case "trainers" -> topology.trainers();
            case "pservers" -> topology.pservers();
            case "port" -> topology.port();
            case "ports_num" -> topology.portsNum();
            case "ports_num_for_sparse" -> topology.portsNumForSparse();
            case "max_restarts" -> lifecycle.maxRestarts();
            default -> null;
        };
    }

    private static String text(Memory memory) {
        return memory == null ? null : memory.toString();
    }

    /** The same request with another first pserver port. */
    public JobRequest withPort(int newPort) {
        var t = topology;
        return new JobRequest(name, code,
                new Topology(t.mode(), t.trainers(), t.pservers(), newPort, t.portsNum(), t.portsNumForSparse()),
                compute, placement, lifecycle, notifications);
    }

    /** The same request under another name (the service names unnamed jobs before planning). */
    public JobRequest withName(String newName) {
        return new JobRequest(newName, code, topology, compute, placement, lifecycle, notifications);
    }
}

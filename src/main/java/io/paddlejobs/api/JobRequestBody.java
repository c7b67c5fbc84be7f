package io.paddlejobs.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.paddlejobs.planning.DnsLabels;
import io.paddlejobs.planning.JobEvent;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.RunTimeLimit;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;

/**
 * The request document, field by field as users write it (snake_case on the wire). Each field's
 * own rule is checked here; rules across fields and the operator's limits are the planner's.
 */
@Schema(name = "JobRequest", description = "A training job. Only entry_point is required.")
public record JobRequestBody(
        @Schema(description = "DNS-1035 label (starts with a letter: it names a Service), 1..40 characters; generated (job-xxxxx) when omitted", example = "fit-a-line")
        @Size(min = 1, max = MAX_NAME_LENGTH) @Pattern(regexp = DnsLabels.JOB_NAME, message = DnsLabels.JOB_NAME_MESSAGE) String name,
        @Schema(description = "Shell command run in each replica", example = "python3 train.py", requiredMode = Schema.RequiredMode.REQUIRED)
        @NotBlank @Size(max = 4096) @Pattern(regexp = NO_NUL, message = NO_NUL_MESSAGE) String entryPoint,
        @Schema(description = "Shell command for pservers, if they start differently; defaults to entry_point")
        @Size(min = 1, max = 4096) @Pattern(regexp = NO_NUL, message = NO_NUL_MESSAGE) String pserverEntryPoint,
        @Schema(description = "Container image (kubernetes backend: defaults to paddlejobs.defaults.image; slurm backend"
                + " with paddlejobs.slurm.containers=pyxis: each step's --container-image, else a warning that the nodes'"
                + " own software runs; the local backend ignores it)")
        @Size(min = 1, max = 512) @Pattern(regexp = "[^\\s\\x00]+", message = "must not contain white space or NUL characters") String image,
        @Schema(description = "GPUs for the job (beginner)", example = "0") @Min(0) @Max(MAX_COUNT) Integer numGpus,
        @Schema(description = "CPUs for the job (beginner)", example = "2") @Min(1) @Max(MAX_COUNT) Integer numCpus,
        @Schema(description = "Memory for the job (beginner), Kubernetes quantity", example = "2Gi") @MemoryQuantity String memory,
        @Schema(description = "Trainer count (advanced)") @Min(1) @Max(MAX_COUNT) Integer trainers,
        @Schema(description = "CPUs per trainer (advanced)") @Min(1) @Max(MAX_COUNT) Integer trainerCpu,
        @Schema(description = "GPUs per trainer (advanced)") @Min(0) @Max(MAX_COUNT) Integer trainerGpu,
        @Schema(description = "Memory per trainer (advanced)") @MemoryQuantity String trainerMem,
        @Schema(description = "Pserver count (advanced); defaults to one per trainer") @Min(1) @Max(MAX_COUNT) Integer pservers,
        @Schema(description = "CPUs per pserver (advanced)") @Min(1) @Max(MAX_COUNT) Integer pserverCpu,
        @Schema(description = "Memory per pserver (advanced)") @MemoryQuantity String pserverMem,
        @Schema(description = "First pserver port, 1024 or above (replicas run without privileges)", example = "7164")
        @Min(value = 1024, message = UNPRIVILEGED_PORT_MESSAGE) @Max(65535) Integer port,
        @Schema(description = "Dense-parameter ports per pserver", example = "1") @Min(1) @Max(64) Integer portsNum,
        @Schema(description = "Sparse-parameter ports per pserver", example = "1") @Min(0) @Max(64) Integer portsNumForSparse,
        @Schema(description = "Defaults to whether GPUs are asked for; a contradicting value is a warning") Boolean useGpu,
        @Schema(description = "Extra environment variables; may not set an injected name") @EnvVars Map<String, String> env,
        @Schema(description = "User labels, Kubernetes label syntax") @Labels Map<String, String> labels,
        @Schema(description = "ps (default): pservers and trainers (Paddle 2.x fleet, Paddle v2); "
                + "collective: trainers only, which all-reduce gradients (Paddle 3.x); pserver fields are then an error",
                allowableValues = {"ps", "collective"}, example = "ps")
        @Pattern(regexp = "ps|collective", message = "must be ps or collective") String mode,
        @Schema(description = "How long the trainers may run before the job is stopped and fails, such as 90m, 2h or"
                + " 1h30m (kubernetes backend: the trainer Job's activeDeadlineSeconds, counted from when the trainers"
                + " start); no limit when omitted", example = "2h")
        @Pattern(regexp = "(?=.*[1-9])" + RunTimeLimit.SYNTAX, message = "must be a duration longer than 0 such as 90m, 2h or 1h30m")
        String maxRunTime,

        @Schema(description = "An uploaded code package (POST /packages) of this namespace; replicas start in its "
                + "unpacked directory", example = "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
        @JsonProperty("package") @Pattern(regexp = PACKAGE_ID, message = "must be sha256: and 64 lower-case hex digits")
        String codePackage,

        @Schema(description = "How many times the whole job is started again after a failure (every replica stopped,"
                + " then all started again after a backoff that doubles); at most paddlejobs.limits.max-restarts",
                example = "3")
        @Min(0) @Max(MAX_COUNT) Integer maxRestarts,
        @Schema(description = "Which failures are retried: any (the default with max_restarts), infrastructure (a"
                + " kill by signal from outside, out of memory, eviction, a lost node; not the program's own exit),"
                + " stall (see stall_timeout), or a list of these words and exit codes such as [\"infrastructure\", 1]")
        @RestartOnItems Object restartOn,
        @Schema(description = "How long no trainer may print a line or report a metric before the job is marked"
                + " Stalled (and, with stall in restart_on, restarted), such as 30m; never when omitted", example = "30m")
        @Pattern(regexp = "(?=.*[1-9])" + RunTimeLimit.SYNTAX, message = "must be a duration longer than 0 such as 30m, 2h or 1h30m")
        String stallTimeout,
        @Schema(description = "Hold a failed attempt this long instead of restarting or ending it, such as 10m: the"
                + " replicas that still run are kept, the failed one's directory and environment too, the job reads"
                + " Running with reason Held, and POST /jobs/{name}/exec runs commands in any replica; then the job"
                + " restarts or fails as it would have. At most paddlejobs.limits.max-debug-hold (local and Slurm"
                + " backends; on Slurm within the job's time limit)",
                example = "10m")
        @Pattern(regexp = "(?=.*[1-9])" + RunTimeLimit.SYNTAX, message = "must be a duration longer than 0 such as 10m, 1h or 1h30m")
        String debugHold,

        @Schema(description = "The scheduling queue to wait in (kubernetes backend: a Kueue LocalQueue of the job's"
                + " namespace, the kueue.x-k8s.io/queue-name label; with the service's scheduler volcano, the Volcano"
                + " queue of the job's PodGroup); defaults to the namespace's queue in paddlejobs.kubernetes.queues;"
                + " the other backends ignore it", example = "gpu-team")
        @Size(min = 1, max = 63) @Pattern(regexp = DnsLabels.NAMESPACE, message = DnsLabels.DNS_LABEL_MESSAGE)
        String queue,
        @Schema(description = "The priority class to wait under (kubernetes backend with Kueue: a"
                + " WorkloadPriorityClass, the kueue.x-k8s.io/priority-class label; with Volcano: the PodGroup's"
                + " PriorityClass); the queue's default when omitted", example = "high")
        @Size(min = 1, max = 63) @Pattern(regexp = DnsLabels.NAMESPACE, message = DnsLabels.DNS_LABEL_MESSAGE)
        String priority,
        @Schema(description = "The Slurm account the job is charged to (slurm backend: sbatch --account), one the"
                + " operator allows the namespace in paddlejobs.slurm.accounts; the backend's account when omitted;"
                + " the other backends ignore it", example = "ml-team")
        @Size(min = 1, max = 64) @Pattern(regexp = SLURM_NAME, message = SLURM_NAME_MESSAGE) String account,
        @Schema(description = "The Slurm partition (slurm backend: sbatch --partition), one the operator allows the"
                + " namespace in paddlejobs.slurm.partitions; the backend's partition when omitted; the other"
                + " backends ignore it", example = "gpu")
        @Size(min = 1, max = 64) @Pattern(regexp = SLURM_NAME, message = SLURM_NAME_MESSAGE) String partition,
        @Schema(description = "The Slurm quality of service (slurm backend: sbatch --qos), one the operator allows"
                + " the namespace in paddlejobs.slurm.qos; the account's default when omitted; the other backends"
                + " ignore it", example = "normal")
        @Size(min = 1, max = 64) @Pattern(regexp = SLURM_NAME, message = SLURM_NAME_MESSAGE) String qos,

        @Schema(description = "Webhooks told of the job's life, signed as Standard Webhooks sign them (docs/webhooks.md);"
                + " each url's host must be one the operator allows (paddlejobs.webhooks.allowed-hosts)")
        @JsonProperty("notify") @Size(max = MAX_NOTIFY) List<@NotNull @Valid NotifyBody> webhooks,

        @Schema(description = "The pservers' image where it differs from image (kubernetes; slurm with Pyxis; the local"
                + " backend maps it as image, see paddlejobs.local.images); defaults to image")
        @Size(min = 1, max = 512) @Pattern(regexp = "[^\\s\\x00]+", message = "must not contain white space or NUL characters")
        String pserverImage,
        @Schema(description = "The pservers' extra environment variables, besides and over env")
        @EnvVars Map<String, String> pserverEnv,
        @Schema(description = "The trainers' extra environment variables, besides and over env")
        @EnvVars Map<String, String> trainerEnv,
        @Schema(description = "Environment variables whose values are secrets of the job's namespace, by name: each"
                + " {secret, key} (kubernetes backend: a secretKeyRef to the namespace's Secret, which the service never"
                + " reads; local and slurm: the operator's secret store, paddlejobs.secrets.store). Only the reference"
                + " is kept and shown; the value reaches the replicas' environment alone (docs/kubeflow.md#secrets)")
        @EnvVars @Size(max = MAX_SECRETS) Map<String, @NotNull @Valid SecretKeyBody> envFromSecrets,
        @Schema(description = "Size of each trainer's memory-backed /dev/shm (kubernetes backend), at most its memory;"
                + " defaults to paddlejobs.kubernetes.shm-size", example = "8Gi")
        @MemoryQuantity String shmSize,
        @Schema(description = "Node labels every pod's node must have (kubernetes backend), among those the operator"
                + " allows the namespace (paddlejobs.kubernetes.placement.node-labels)")
        @Labels(ofNodes = true) Map<String, String> nodeSelector,
        @Schema(description = "Taints every pod tolerates (kubernetes backend), among those the operator allows the"
                + " namespace (paddlejobs.kubernetes.placement.tolerations)")
        @Size(max = MAX_PLACEMENT_ITEMS) List<@NotNull @Valid TolerationBody> tolerations,
        @Schema(description = "Requirements on node labels every pod's node must meet, all of them (kubernetes backend:"
                + " the pods' required node affinity, one term); In and Exists only on labels the operator allows the"
                + " namespace (paddlejobs.kubernetes.placement.node-labels)")
        @Size(max = MAX_PLACEMENT_ITEMS) List<@NotNull @Valid NodeRequirementBody> nodeAffinity,
        @Schema(description = "Claims and config maps of the namespace mounted read-only in every replica (kubernetes"
                + " backend), among those the operator allows the namespace (paddlejobs.kubernetes.placement.volumes)")
        @Size(max = MAX_PLACEMENT_ITEMS) List<@NotNull @Valid VolumeBody> volumes) {

    /** Secrets a job may name: each is one more reference the cluster resolves at every pod's start. */
    static final int MAX_SECRETS = 32;

    /** Tolerations, requirements and volumes a job may list, each. */
    static final int MAX_PLACEMENT_ITEMS = 16;

    /** A Kubernetes label key (qualified name): an optional DNS-subdomain prefix and a name. */
    static final String LABEL_KEY = "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
            + "([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]";
    static final String LABEL_KEY_MESSAGE = "must be a label key: [prefix/]name, the name at most 63 letters, digits,"
            + " '-', '_' or '.', starting and ending with a letter or digit";
    static final String LABEL_VALUE = "(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?";
    static final String LABEL_VALUE_MESSAGE = "must be empty or at most 63 letters, digits, '-', '_' or '.', starting"
            + " and ending with a letter or digit";

    /** A secret's name, as Kubernetes names Secrets (a DNS subdomain), which also keeps it one directory of a store. */
    static final String SECRET_NAME = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
    /** A key of a secret, as Kubernetes allows one, never {@code .} or {@code ..} (a key is a file of a store). */
    static final String SECRET_KEY = "(?!\\.\\.?$)[-._a-zA-Z0-9]+";

    /** One key of a secret of the job's namespace. */
    @Schema(name = "SecretKeyRef", description = "One key of a secret of the job's namespace")
    public record SecretKeyBody(
            @Schema(description = "The secret's name (a Kubernetes Secret of the job's namespace, or a secret of the"
                    + " namespace in the operator's store)", example = "hdfs", requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Size(min = 1, max = 253) @Pattern(regexp = SECRET_NAME, message = "must be a DNS subdomain such as hdfs or s3.read")
            String secret,
            @Schema(description = "The key within it", example = "password", requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Size(min = 1, max = 253)
            @Pattern(regexp = SECRET_KEY, message = "must be letters, digits, '-', '_' and '.', and not . or ..")
            String key) {
    }

    /** A taint the pods tolerate. */
    @Schema(name = "Toleration", description = "A taint every pod of the job tolerates, as Kubernetes writes one")
    public record TolerationBody(
            @Schema(description = "The taint's key", example = "dedicated", requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Size(max = 316) @Pattern(regexp = LABEL_KEY, message = LABEL_KEY_MESSAGE) String key,
            @Schema(description = "Equal (the default: the value must match) or Exists (any value)",
                    allowableValues = {"Equal", "Exists"})
            @Pattern(regexp = "Equal|Exists", message = "must be Equal or Exists") String operator,
            @Schema(description = "The taint's value, with Equal", example = "training")
            @Size(max = 63) @Pattern(regexp = LABEL_VALUE, message = LABEL_VALUE_MESSAGE) String value,
            @Schema(description = "The taint's effect; every effect when omitted",
                    allowableValues = {"NoSchedule", "PreferNoSchedule", "NoExecute"})
            @Pattern(regexp = "NoSchedule|PreferNoSchedule|NoExecute",
                    message = "must be NoSchedule, PreferNoSchedule or NoExecute") String effect) {

        JobRequest.Toleration toToleration() {
            return new JobRequest.Toleration(key, operator, value, effect);
        }

        static TolerationBody of(JobRequest.Toleration t) {
            return new TolerationBody(t.key(), t.operator(), t.value(), t.effect());
        }
    }

    /** A requirement on a node label. */
    @Schema(name = "NodeRequirement", description = "A requirement on a node label (a match expression of the pods'"
            + " required node affinity)")
    public record NodeRequirementBody(
            @Schema(description = "The node label's key", example = "pool", requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Size(max = 316) @Pattern(regexp = LABEL_KEY, message = LABEL_KEY_MESSAGE) String key,
            @Schema(description = "In or NotIn (with values), Exists or DoesNotExist (without)",
                    allowableValues = {"In", "NotIn", "Exists", "DoesNotExist"}, requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Pattern(regexp = "In|NotIn|Exists|DoesNotExist", message = "must be In, NotIn, Exists or DoesNotExist")
            String operator,
            @Schema(description = "The label values In and NotIn name")
            @Size(max = MAX_PLACEMENT_ITEMS)
            List<@NotNull @Size(max = 63) @Pattern(regexp = LABEL_VALUE, message = LABEL_VALUE_MESSAGE) String> values) {

        JobRequest.NodeRequirement toRequirement() {
            return new JobRequest.NodeRequirement(key, operator, values);
        }

        static NodeRequirementBody of(JobRequest.NodeRequirement r) {
            return new NodeRequirementBody(r.key(), r.operator(), r.values().isEmpty() ? null : r.values());
        }
    }

    /** An extra volume, mounted read-only. */
    @Schema(name = "Volume", description = "A claim or config map of the job's namespace, mounted read-only in every"
            + " replica: give claim or config_map, not both")
    public record VolumeBody(
            @Schema(description = "A PersistentVolumeClaim of the namespace", example = "ctr-data")
            @Size(min = 1, max = 253) @Pattern(regexp = SECRET_NAME, message = "must be a DNS subdomain such as ctr-data")
            String claim,
            @Schema(description = "A ConfigMap of the namespace", example = "train-settings")
            @Size(min = 1, max = 253) @Pattern(regexp = SECRET_NAME, message = "must be a DNS subdomain such as train-settings")
            String configMap,
            @Schema(description = "Where it is mounted: an absolute path", example = "/mnt/data",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            @NotNull @Size(min = 2, max = 512)
            @Pattern(regexp = MOUNT_PATH, message = "must be an absolute path of names, without . or .. or a trailing /")
            String mountPath) {

        JobRequest.Volume toVolume() {
            return new JobRequest.Volume(claim, configMap, mountPath);
        }

        static VolumeBody of(JobRequest.Volume v) {
            return new VolumeBody(v.claim(), v.configMap(), v.mountPath());
        }
    }

    /** {@code /a/b}: names of printable characters, none of them {@code .} or {@code ..}. */
    static final String MOUNT_PATH = "(/(?!\\.\\.?(/|$))[^/\\s\\x00:]+)+";

    /** A Slurm account, partition or QOS name: nothing a batch script's directive line could read otherwise. */
    static final String SLURM_NAME = "[A-Za-z0-9_.-]+";
    static final String SLURM_NAME_MESSAGE = "must be letters, digits, '_', '.' and '-' only";

    /** The most webhooks one job may name: each event is one delivery per webhook. */
    static final int MAX_NOTIFY = 10;

    /** One webhook of {@code notify}. */
    @Schema(name = "Notify", description = "A webhook: where it is sent, and of which events")
    public record NotifyBody(
            @Schema(description = "http or https URL the events are POSTed to", example = "https://hooks.example.com/paddle",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            @NotBlank @Size(max = 2048)
            @Pattern(regexp = WEBHOOK_URL, message = "must be an http or https URL with a host and no user name or password")
            String url,
            @ArraySchema(arraySchema = @Schema(description = "Which events; succeeded, failed and cancelled when omitted"),
                    schema = @Schema(allowableValues = {"started", "restarting", "succeeded", "failed", "cancelled", "stalled"}))
            @Size(min = 1, max = 6)
            List<@NotNull @Pattern(regexp = "started|restarting|succeeded|failed|cancelled|stalled",
                    message = "must be one of started, restarting, succeeded, failed, cancelled, stalled") String> events) {

        static NotifyBody of(JobRequest.Notify notify) {
            return new NotifyBody(notify.url(), notify.events() == null ? null
                    : notify.events().stream().map(JobEvent::wireName).toList());
        }

        JobRequest.Notify toNotify() {
            return new JobRequest.Notify(url, events == null ? null
                    : events.stream().distinct().map(JobEvent::parse).toList());
        }
    }

    /** http(s), a host, no user information, no fragment, nothing a shell or header could read otherwise. */
    static final String WEBHOOK_URL = "https?://[^/?#@\\s\\x00]+(/[^#\\s\\x00]*)?";

    /**
     * Far above any sensible limit (the operator's limits are checked later, with a better
     * message), and low enough that no product of counts, CPUs and memory overflows in planning.
     */
    static final int MAX_COUNT = 10_000;

    public static final int MAX_NAME_LENGTH = 40;

    /** A code package's id: its content's SHA-256. */
    public static final String PACKAGE_ID = "sha256:[0-9a-f]{64}";

    /** A process can be given no NUL character, in its command line or its environment. */
    static final String NO_NUL = "[^\\x00]*";
    static final String NO_NUL_MESSAGE = "must not contain NUL characters";

    /** Replicas run as a non-root user with every capability dropped: ports below 1024 cannot be bound. */
    static final String UNPRIVILEGED_PORT_MESSAGE =
            "must be at least 1024: replicas run as a non-root user without capabilities and cannot bind a lower port";

    /** Field syntax has been checked, so memory strings parse. */
    JobRequest toRequest() {
        return new JobRequest(name,
                new JobRequest.Code(entryPoint, pserverEntryPoint, image, pserverImage, codePackage, env, pserverEnv,
                        trainerEnv, envFromSecrets == null ? null : secretKeys(envFromSecrets)),
                new JobRequest.Topology(mode == null ? null : JobMode.fromLabel(mode), trainers, pservers,
                        port, portsNum, portsNumForSparse),
                new JobRequest.Compute(numGpus, numCpus, memory(memory), trainerCpu, trainerGpu, memory(trainerMem),
                        pserverCpu, memory(pserverMem), useGpu, memory(shmSize)),
                new JobRequest.Placement(labels, queue, priority, account, partition, qos, nodeSelector,
                        tolerations == null ? null : tolerations.stream().map(TolerationBody::toToleration).toList(),
                        nodeAffinity == null ? null : nodeAffinity.stream().map(NodeRequirementBody::toRequirement).toList(),
                        volumes == null ? null : volumes.stream().map(VolumeBody::toVolume).toList()),
                new JobRequest.Lifecycle(duration(maxRunTime), maxRestarts,
                        restartOn == null ? null : RestartOn.parse(restartOn), duration(stallTimeout),
                        duration(debugHold)),
                new JobRequest.Notifications(webhooks == null ? null : webhooks.stream().map(NotifyBody::toNotify).toList()));
    }

    /**
     * The request document of a request: what {@link #toRequest} reads back to the same request
     * (a run again starts from it). Durations are written in seconds, which the syntax accepts.
     */
    static JobRequestBody of(JobRequest request) {
        var code = request.code();
        var topology = request.topology();
        var compute = request.compute();
        var lifecycle = request.lifecycle();
        var placement = request.placement();
        return new JobRequestBody(request.name(), code.entryPoint(), code.pserverEntryPoint(), code.image(),
                compute.numGpus(), compute.numCpus(), text(compute.memory()), topology.trainers(), compute.trainerCpu(),
                compute.trainerGpu(), text(compute.trainerMem()), topology.pservers(), compute.pserverCpu(),
                text(compute.pserverMem()), topology.port(), topology.portsNum(), topology.portsNumForSparse(),
                compute.useGpu(), code.env().isEmpty() ? null : code.env(),
                request.placement().labels().isEmpty() ? null : request.placement().labels(),
                topology.mode() == null ? null : topology.mode().label(), text(lifecycle.maxRunTime()),
                code.codePackage(), lifecycle.maxRestarts(),
                lifecycle.restartOn() == null ? null : lifecycle.restartOn().wire(), text(lifecycle.stallTimeout()),
                text(lifecycle.debugHold()),
                request.placement().queue(), request.placement().priority(), request.placement().account(),
                request.placement().partition(), request.placement().qos(),
                request.notifications().webhooks().isEmpty() ? null
                        : request.notifications().webhooks().stream().map(NotifyBody::of).toList(),
                code.pserverImage(), orNull(code.pserverEnv()), orNull(code.trainerEnv()),
                code.envFromSecrets().isEmpty() ? null : secretKeyBodies(code.envFromSecrets()),
                text(compute.shmSize()), orNull(placement.nodeSelector()),
                placement.tolerations().isEmpty() ? null : placement.tolerations().stream().map(TolerationBody::of).toList(),
                placement.nodeAffinity().isEmpty() ? null
                        : placement.nodeAffinity().stream().map(NodeRequirementBody::of).toList(),
                placement.volumes().isEmpty() ? null : placement.volumes().stream().map(VolumeBody::of).toList());
    }

    private static Map<String, String> orNull(Map<String, String> map) {
        return map.isEmpty() ? null : map;
    }

    private static Map<String, JobRequest.SecretKey> secretKeys(Map<String, SecretKeyBody> bodies) {
        Map<String, JobRequest.SecretKey> keys = new java.util.LinkedHashMap<>();
        bodies.forEach((name, body) -> keys.put(name, new JobRequest.SecretKey(body.secret(), body.key())));
        return keys;
    }

    private static Map<String, SecretKeyBody> secretKeyBodies(Map<String, JobRequest.SecretKey> keys) {
        Map<String, SecretKeyBody> bodies = new java.util.LinkedHashMap<>();
        keys.forEach((name, key) -> bodies.put(name, new SecretKeyBody(key.secret(), key.key())));
        return bodies;
    }

    private static String text(Memory memory) {
        return memory == null ? null : memory.toString();
    }

    private static String text(java.time.Duration duration) {
        return duration == null ? null : RunTimeLimit.format(duration);
    }

    private static java.time.Duration duration(String text) {
        return text == null ? null : RunTimeLimit.parse(text);
    }

    private static Memory memory(String text) {
        return text == null ? null : Memory.parse(text);
    }
}

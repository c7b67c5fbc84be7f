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
        @JsonProperty("notify") @Size(max = MAX_NOTIFY) List<@NotNull @Valid NotifyBody> webhooks) {

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
                new JobRequest.Code(entryPoint, pserverEntryPoint, image, codePackage, env),
                new JobRequest.Topology(mode == null ? null : JobMode.fromLabel(mode), trainers, pservers,
                        port, portsNum, portsNumForSparse),
                new JobRequest.Compute(numGpus, numCpus, memory(memory), trainerCpu, trainerGpu, memory(trainerMem),
                        pserverCpu, memory(pserverMem), useGpu),
                new JobRequest.Placement(labels, queue, priority, account, partition, qos),
                new JobRequest.Lifecycle(duration(maxRunTime), maxRestarts,
                        restartOn == null ? null : RestartOn.parse(restartOn), duration(stallTimeout)),
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
        return new JobRequestBody(request.name(), code.entryPoint(), code.pserverEntryPoint(), code.image(),
                compute.numGpus(), compute.numCpus(), text(compute.memory()), topology.trainers(), compute.trainerCpu(),
                compute.trainerGpu(), text(compute.trainerMem()), topology.pservers(), compute.pserverCpu(),
                text(compute.pserverMem()), topology.port(), topology.portsNum(), topology.portsNumForSparse(),
                compute.useGpu(), code.env().isEmpty() ? null : code.env(),
                request.placement().labels().isEmpty() ? null : request.placement().labels(),
                topology.mode() == null ? null : topology.mode().label(), text(lifecycle.maxRunTime()),
                code.codePackage(), lifecycle.maxRestarts(),
                lifecycle.restartOn() == null ? null : lifecycle.restartOn().wire(), text(lifecycle.stallTimeout()),
                request.placement().queue(), request.placement().priority(), request.placement().account(),
                request.placement().partition(), request.placement().qos(),
                request.notifications().webhooks().isEmpty() ? null
                        : request.notifications().webhooks().stream().map(NotifyBody::of).toList());
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

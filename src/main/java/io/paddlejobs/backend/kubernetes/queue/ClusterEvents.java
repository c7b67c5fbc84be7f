package io.paddlejobs.backend.kubernetes.queue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.job.JobKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Why a pending job is stuck, when its pods do not say: the cluster's last warning Event about
 * one of its objects. A quota or LimitRange refusal, or an admission webhook, shows only as
 * {@code FailedCreate} on the Job (no pod exists to say anything); a volume that cannot be
 * attached as {@code FailedMount}/{@code FailedAttachVolume} on a pod that only says
 * {@code ContainerCreating}.
 *
 * <p>Events carry none of our labels, so they are not watched: they are read (one list of the
 * namespace's events) only for a job that is pending for no reason its pods give, at most once
 * per {@link #MIN_INTERVAL} per job, and kept here, where status reads find them. A job Kueue
 * holds in its queue is explained by its Workloads first ({@link QueueWaits}), a job Volcano has not placed
 * by its PodGroup ({@link PodGroupWaits}).
 */
public final class ClusterEvents {

    public static final Duration MIN_INTERVAL = Duration.ofSeconds(10);
    /**
     * How long a job may be pending, its pods on their way, before the cluster is asked why: most jobs' pods start
     * within it, and then no one pays for the question (on a busy cluster, a list of thousands of events per job).
     */
    static final Duration SETTLE = Duration.ofSeconds(5);

    private record Seen(Instant at, ObservedJob.Explanation explanation) {
    }

    private final KubernetesClient client;
    private final QueueWaits queueWaits;
    private final PodGroupWaits podGroupWaits;
    private final Clock clock;
    private final Map<JobKey, Seen> seen = new ConcurrentHashMap<>();

    public ClusterEvents(KubernetesClient client, Clock clock) {
        this.client = client;
        this.queueWaits = new QueueWaits(client, new QueuePositions(client, clock));
        this.podGroupWaits = new PodGroupWaits(client);
        this.clock = clock;
    }

    /** How much longer a job created then is too young to ask the cluster about; zero or less once it may be asked. */
    public static Duration tooYoungToAsk(Instant createdAt, Instant now) {
        if (createdAt == null) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(now, createdAt.plus(SETTLE));
        return left.compareTo(SETTLE) > 0 ? SETTLE : left; // an API server whose clock runs ahead delays it no longer
    }

    /** The last explanation read for the job, or {@code null}. */
    public ObservedJob.Explanation of(JobKey key) {
        Seen last = seen.get(key);
        return last == null ? null : last.explanation();
    }

    /** Reads the job's warnings again, unless that was done a moment ago. */
    public ObservedJob.Explanation refresh(JobKey key, ObservedJob job) {
        Instant now = clock.instant();
        Seen last = seen.get(key);
        if (last != null && last.at().plus(MIN_INTERVAL).isAfter(now)) {
            return last.explanation();
        }
        ObservedJob.Explanation explanation;
        try {
            explanation = job.queued() ? queueWaits.of(job) : job.gang() ? podGroupWaits.of(job) : null;
            if (explanation == null) {
                explanation = latestWarning(job);
            }
        } catch (KubernetesClientException e) {
            explanation = last == null ? null : last.explanation();
        }
        seen.put(key, new Seen(now, explanation));
        return explanation;
    }

    public void forget(JobKey key) {
        seen.remove(key);
    }

    private ObservedJob.Explanation latestWarning(ObservedJob job) {
        Set<String> names = new HashSet<>();
        Set<String> uids = new HashSet<>();
        names.add(ObjectNames.trainerJob(job.name()));
        names.add(ObjectNames.pserverJob(job.name()));
        uids.add(job.trainerJob().getMetadata().getUid());
        if (job.pserverJob() != null) {
            uids.add(job.pserverJob().getMetadata().getUid());
        }
        job.pods().forEach(pod -> {
            names.add(pod.getMetadata().getName());
            uids.add(pod.getMetadata().getUid());
        });
        // Filtered here rather than by a field selector, which not every API server (nor fabric8's mock) honours for type.
        return client.v1().events().inNamespace(job.namespace()).list().getItems().stream()
                .filter(e -> "Warning".equals(e.getType()) && e.getInvolvedObject() != null
                        && about(e.getInvolvedObject(), names, uids))
                .max(Comparator.comparing(ClusterEvents::when))
                .map(e -> new ObservedJob.Explanation(e.getReason(),
                        e.getInvolvedObject().getKind() + " " + e.getInvolvedObject().getName(), e.getMessage()))
                .orElse(null);
    }

    /**
     * Whether the event is about one of these objects. Events outlive their objects (an hour, by
     * default): a job submitted again under the same name has the same object names, so where
     * the event names its object's uid, as the API server's always do, only the uid counts.
     */
    private static boolean about(ObjectReference object, Set<String> names, Set<String> uids) {
        return object.getUid() == null || object.getUid().isEmpty() ? names.contains(object.getName())
                : uids.contains(object.getUid());
    }

    /** Events have had three timestamps over the API's life; the newest one set is what counts. */
    private static String when(Event event) {
        return Objects.requireNonNullElse(event.getLastTimestamp(), Objects.requireNonNullElse(
                event.getEventTime() == null ? null : event.getEventTime().getTime(),
                Objects.requireNonNullElse(event.getMetadata().getCreationTimestamp(), "")));
    }
}

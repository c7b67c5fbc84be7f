package io.paddlejobs.backend.kubernetes.lifecycle;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.backend.kubernetes.cluster.ApiErrors;
import io.paddlejobs.job.JobKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the earlier attempts' log ends a trainer Job carries ({@link EarlierLogs}) with a GET, which the
 * informer cache cannot answer (it drops them). The history keeps every replica's end of every earlier attempt
 * when a job finishes, a read each: one GET serves them all for {@link #FRESH}. A copy that lacks the attempt
 * asked for is read again (a restart since added it); an attempt's end never changes but to be cut shorter.
 */
public final class EarlierLogReads {

    static final Duration FRESH = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final Clock clock;
    private final Map<JobKey, Read> recent = new ConcurrentHashMap<>();

    public EarlierLogReads(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The kept end of {@code replica}'s log of {@code attempt}; empty where none was kept. */
    public Optional<String> of(JobKey key, String trainerJobName, int attempt, String replica) {
        Instant now = clock.instant();
        recent.values().removeIf(read -> read.at().plus(FRESH).isBefore(now));
        Read read = recent.get(key);
        if (read == null || !read.job().getMetadata().getName().equals(trainerJobName)
                || EarlierLogs.of(read.job(), attempt, replica).isEmpty()) {
            read = new Read(get(key, trainerJobName), now);
            if (read.job() == null) {
                return Optional.empty();
            }
            recent.put(key, read);
        }
        return EarlierLogs.of(read.job(), attempt, replica);
    }

    private Job get(JobKey key, String trainerJobName) {
        try {
            return client.batch().v1().jobs().inNamespace(key.namespace()).withName(trainerJobName).get();
        } catch (KubernetesClientException e) {
            throw ApiErrors.translate(e, "read the earlier attempts' logs of '" + key.name() + "'");
        }
    }

    private record Read(Job job, Instant at) {
    }
}

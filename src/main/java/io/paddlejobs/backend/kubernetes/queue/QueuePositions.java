package io.paddlejobs.backend.kubernetes.queue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a waiting Workload stands in its queue, from Kueue's visibility API: the pending workloads of
 * its LocalQueue ({@code GET .../localqueues/<queue>/pendingworkloads}, an aggregated API that Kueue
 * serves and the API server forwards to), each with its place in the LocalQueue and in the
 * ClusterQueue behind it.
 *
 * <p>One read answers for every job waiting in the same queue, so it is kept for {@link #FRESH}; a
 * cluster that does not serve the API (Kueue without its visibility server, an older Kueue, or a
 * service account not allowed to read it) is asked again only after {@link #UNSERVED_PAUSE}, and
 * jobs then wait without a position, as they did before.
 */
final class QueuePositions {

    /** Places counted from 1: 1 is the next to be admitted. */
    record Position(int inLocalQueue, int inClusterQueue) {
    }

    static final String API = "/apis/visibility.kueue.x-k8s.io/v1beta2";
    static final Duration FRESH = Duration.ofSeconds(5);
    static final Duration UNSERVED_PAUSE = Duration.ofMinutes(5);
    private static final Logger log = LoggerFactory.getLogger(QueuePositions.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private record QueueKey(String namespace, String queue) {
    }

    private record Read(Instant at, Map<String, Position> byWorkload) {
    }

    private final KubernetesClient client;
    private final Clock clock;
    private final Map<QueueKey, Read> reads = new ConcurrentHashMap<>();
    private volatile Instant unservedUntil = Instant.MIN;
    private volatile boolean reported;

    QueuePositions(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** @return {@code null} when the Workload is not pending in that queue, or the API is not served */
    Position of(String namespace, String queue, String workload) {
        Instant now = clock.instant();
        QueueKey key = new QueueKey(namespace, queue);
        Read read = reads.get(key);
        if (read == null || !read.at().plus(FRESH).isAfter(now)) {
            if (unservedUntil.isAfter(now)) {
                return null;
            }
            read = new Read(now, pending(key, now));
            reads.put(key, read);
        }
        return read.byWorkload().get(workload);
    }

    private Map<String, Position> pending(QueueKey key, Instant now) {
        String path = API + "/namespaces/" + key.namespace() + "/localqueues/" + key.queue() + "/pendingworkloads";
        String body;
        try {
            body = client.raw(path);
        } catch (KubernetesClientException e) {
            unserved(now, e.getCode() + " " + e.getMessage());
            return Map.of();
        }
        if (body == null) {
            unserved(now, "404 Not Found");
            return Map.of();
        }
        return parse(body);
    }

    /** The positions of a {@code PendingWorkloadsSummary}, by Workload name; pure, for the tests. */
    static Map<String, Position> parse(String summary) {
        Map<String, Position> positions = new HashMap<>();
        JsonNode items = JSON.readTree(summary).path("items");
        for (JsonNode item : items) {
            positions.put(item.path("metadata").path("name").asString(), new Position(
                    item.path("positionInLocalQueue").asInt() + 1, item.path("positionInClusterQueue").asInt() + 1));
        }
        return positions;
    }

    private void unserved(Instant now, String why) {
        String message = "Kueue's visibility API ({}) cannot be read: {}; jobs waiting in a queue show no position "
                + "(asking again in {})";
        if (reported) {
            log.debug(message, API, why, UNSERVED_PAUSE);
        } else {
            log.info(message, API, why, UNSERVED_PAUSE);
            reported = true;
        }
        unservedUntil = now.plus(UNSERVED_PAUSE);
    }
}

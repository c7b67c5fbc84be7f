package io.paddlejobs.webhooks;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.planning.JobEvent;
import io.paddlejobs.planning.JobRequest;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operator's side of webhooks: each namespace's secret and subscriptions, checked when the service
 * starts, and what a delivery carries (its id and body, the same for every webhook of one event).
 */
final class Subscriptions {

    private final Map<String, String> secrets;
    private final Map<String, List<JobRequest.Notify>> byNamespace;
    private final JsonMapper json;

    Subscriptions(WebhooksProperties settings, JsonMapper json) {
        this.json = json;
        this.secrets = Map.copyOf(settings.secrets());
        secrets.forEach((namespace, secret) -> {
            if (!Signatures.valid(secret)) {
                throw new IllegalArgumentException("paddlejobs.webhooks.secrets." + namespace
                        + " must be whsec_ and the base64 of at least 24 random bytes");
            }
        });
        this.byNamespace = settings.subscriptions().entrySet().stream().collect(Collectors.toUnmodifiableMap(
                Map.Entry::getKey, entry -> entry.getValue().stream().map(s -> notify(entry.getKey(), s)).toList()));
        byNamespace.keySet().forEach(namespace -> {
            if (!secrets.containsKey(namespace)) {
                throw new IllegalArgumentException("paddlejobs.webhooks.subscriptions." + namespace
                        + " needs paddlejobs.webhooks.secrets." + namespace + " to sign its deliveries");
            }
        });
    }

    private static JobRequest.Notify notify(String namespace, WebhooksProperties.Subscription subscription) {
        try {
            return new JobRequest.Notify(subscription.url(), subscription.events().isEmpty() ? null
                    : subscription.events().stream().map(JobEvent::parse).toList());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("paddlejobs.webhooks.subscriptions." + namespace + ": events "
                    + e.getMessage(), e);
        }
    }

    boolean has(String namespace) {
        return byNamespace.containsKey(namespace);
    }

    List<JobRequest.Notify> of(String namespace) {
        return byNamespace.getOrDefault(namespace, List.of());
    }

    boolean hasSecret(String namespace) {
        return secrets.containsKey(namespace);
    }

    String secret(String namespace) {
        return secrets.get(namespace);
    }

    /** The body every webhook of this event gets: {@code type}, {@code timestamp} and the job's {@code data}. */
    String body(JobEvent event, Job job, String statusUrl, Instant now) {
        JobStatus status = job.status();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", job.plan().name());
        data.put("namespace", job.plan().namespace());
        data.put("phase", status.phase().wireName());
        if (status.reason() != null) {
            data.put("reason", status.reason());
        }
        if (status.message() != null) {
            data.put("message", status.message());
        }
        data.put("restarts", status.restarts());
        data.put("status_url", statusUrl);
        data.put("time", when(event, status, now).toString());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "job." + event.wireName());
        body.put("timestamp", now.toString());
        body.put("data", data);
        return json.writeValueAsString(body);
    }

    /** When it happened, where the status says so; else when the service saw it. */
    private static Instant when(JobEvent event, JobStatus status, Instant now) {
        Instant said = switch (event) {
            case STARTED -> status.startedAt();
            case SUCCEEDED, FAILED, CANCELLED -> status.finishedAt();
            case RESTARTING, STALLED -> null;
        };
        return said != null ? said : now;
    }

    static Delivery delivery(JobEvent event, String url, Delivery.SecretOf signedWith, String body, Instant now) {
        return new Delivery("msg_" + UUID.randomUUID().toString().replace("-", ""), event, url, signedWith, body, now,
                Delivery.State.PENDING, now, List.of());
    }

    /** Who answers a URL: its scheme, host and port, which one sender at a time may wait on. */
    static String receiver(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
    }
}

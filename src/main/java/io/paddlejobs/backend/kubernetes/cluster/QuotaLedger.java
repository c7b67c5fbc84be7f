package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.QuotaUsage;
import io.paddlejobs.job.SharedUsage;
import io.paddlejobs.planning.JobPlan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Quota admission every replica of the service shares: a namespace's usage is its unfinished jobs as the informer
 * cache holds them, together with the places claimed in the last {@link #GRACE} in the namespace's ConfigMap
 * {@value #NAME} (a job another replica has just created may not have reached this replica's cache yet). A claim
 * is written with the ConfigMap's resourceVersion as a precondition, so of two replicas claiming the last place
 * at once one is refused by the API server (409), reads again, and finds it taken. A claim lapses after the grace:
 * by then its job is in every cache, or its create failed.
 *
 * <p>Entries are {@code <job>: <claimed at, epoch ms>/<GPUs>}; a job name is a DNS label, a valid ConfigMap key.
 */
public final class QuotaLedger implements SharedUsage {

    public static final String NAME = "paddle-jobs-quota";
    /** Longer than a cache takes to see a created job, even on a loaded API server. */
    static final Duration GRACE = Duration.ofSeconds(60);
    private static final int CONFLICT = 409;
    private static final int TRIES = 50;

    private record Claim(Instant at, long gpus) {

        static Claim parse(String text) {
            int slash = text.indexOf('/');
            try {
                return new Claim(Instant.ofEpochMilli(Long.parseLong(text.substring(0, slash))),
                        Long.parseLong(text.substring(slash + 1)));
            } catch (RuntimeException unreadable) {
                return null; // not ours to keep: dropped with the next write
            }
        }

        String text() {
            return at.toEpochMilli() + "/" + gpus;
        }
    }

    private final KubernetesClient client;
    private final Function<String, List<Job>> cached;
    private final Clock clock;

    /** @param cached the namespace's jobs as the informer cache holds them */
    public QuotaLedger(KubernetesClient client, Function<String, List<Job>> cached, Clock clock) {
        this.client = client;
        this.cached = cached;
        this.clock = clock;
    }

    @Override
    public void claim(JobPlan plan, Consumer<QuotaUsage> fits) {
        for (int attempt = 0; attempt < TRIES; attempt++) {
            ConfigMap ledger = ledger(plan.namespace()).get();
            Instant now = clock.instant();
            Map<String, Claim> recent = recent(ledger, now);
            fits.accept(usage(plan.namespace(), recent));
            recent.put(plan.name(), new Claim(now, plan.totals().gpu()));
            if (write(plan.namespace(), ledger, recent)) {
                return;
            }
        }
        // Other replicas took every try's place first: busy, not refused (503, try again).
        throw new ClusterUnavailableException("admit '" + plan.name() + "'", new KubernetesClientException(
                "the quota ledger " + NAME + " changed under each of " + TRIES + " tries"));
    }

    @Override
    public void release(JobKey key) {
        try {
            for (int attempt = 0; attempt < TRIES; attempt++) {
                ConfigMap ledger = ledger(key.namespace()).get();
                Map<String, Claim> recent = recent(ledger, clock.instant());
                if (recent.remove(key.name()) == null || write(key.namespace(), ledger, recent)) {
                    return;
                }
            }
        } catch (KubernetesClientException e) {
            // The claim lapses after the grace anyway.
        }
    }

    /**
     * The unfinished jobs the cache holds, and the places claimed for jobs it does not hold yet. A job the cache
     * holds counts as it stands there, claimed or not: a finished one holds nothing, and a name cannot be claimed
     * again while the cluster still has a job of that name.
     */
    private QuotaUsage usage(String namespace, Map<String, Claim> recent) {
        Map<String, Long> gpus = new HashMap<>();
        recent.forEach((name, claim) -> gpus.put(name, claim.gpus()));
        for (Job job : cached.apply(namespace)) {
            if (job.status().phase().isFinished()) {
                gpus.remove(job.plan().name());
            } else {
                gpus.put(job.plan().name(), (long) job.plan().totals().gpu());
            }
        }
        return new QuotaUsage(gpus.size(), gpus.values().stream().mapToLong(Long::longValue).sum());
    }

    private static Map<String, Claim> recent(ConfigMap ledger, Instant now) {
        Map<String, Claim> recent = new LinkedHashMap<>();
        if (ledger != null && ledger.getData() != null) {
            ledger.getData().forEach((name, text) -> {
                Claim claim = Claim.parse(text);
                if (claim != null && claim.at().plus(GRACE).isAfter(now)) {
                    recent.put(name, claim);
                }
            });
        }
        return recent;
    }

    /** @return false when another replica changed the ledger since it was read */
    private boolean write(String namespace, ConfigMap read, Map<String, Claim> claims) {
        Map<String, String> data = new LinkedHashMap<>();
        claims.forEach((name, claim) -> data.put(name, claim.text()));
        try {
            if (read == null) {
                client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder()
                        .withNewMetadata().withName(NAME).withNamespace(namespace).withLabels(JobLabels.managed()).endMetadata()
                        .withData(data).build()).create();
            } else {
                // Its resourceVersion makes the update conditional: a ledger changed since it was read is a 409.
                client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder(read).withData(data).build()).update();
            }
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == CONFLICT) {
                return false;
            }
            throw ApiErrors.translate(e, "claim a place in the quota ledger " + NAME);
        }
    }

    private Resource<ConfigMap> ledger(String namespace) {
        return client.configMaps().inNamespace(namespace).withName(NAME);
    }
}

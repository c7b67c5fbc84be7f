package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.ShippedCode;
import io.paddlejobs.job.JobAlreadyExistsException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a job's objects, all or nothing. The trainer Job is created first: creating it is
 * what makes a job name taken (the API server decides between two concurrent submits), and its
 * uid is what the other objects name as their owner. The owned objects are then created side by
 * side. If one of those creates fails, what was created is removed before the error reaches the user.
 */
public final class JobCreator {

    private static final Logger log = LoggerFactory.getLogger(JobCreator.class);

    /** Creates at once beside the requests' threads; more wait their turn, a moment at most. */
    private static final int CREATE_THREADS = 16;

    /**
     * Runs the owned objects' creates beside the request's thread. Daemon threads that end when
     * idle: nothing to close, and nothing that keeps a stopping service alive. A create waits on no
     * other task of this pool, so a bounded one with a queue cannot deadlock.
     */
    private static final Executor THREADS = threads();

    private static ThreadPoolExecutor threads() {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor threads = new ThreadPoolExecutor(CREATE_THREADS, CREATE_THREADS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "kubernetes-create-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        threads.allowCoreThreadTimeOut(true);
        return threads;
    }

    private final KubernetesClient client;
    private final KubernetesProperties settings;

    public JobCreator(KubernetesClient client, KubernetesProperties settings) {
        this.client = client;
        this.settings = settings;
    }

    /**
     * @return the trainer Job as the API server created it
     * @throws JobAlreadyExistsException when a trainer Job of that name exists; if it is the same
     *         spec, its other objects are created first, so that a retry completes an interrupted submit
     */
    public Job create(JobPlan plan, DataClaim claim, ShippedCode code) {
        Manifests desired = Manifests.desired(plan, settings, claim, code);
        Job created;
        try {
            created = client.resource(desired.trainerJob()).create();
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e)) {
                completeIfSame(desired);
                throw new JobAlreadyExistsException(new JobKey(plan.namespace(), plan.name()));
            }
            throw ApiErrors.translate(e, "create the trainer Job of '" + plan.name() + "'");
        }
        List<HasMetadata> made = new CopyOnWriteArrayList<>(List.of(created));
        RuntimeException failure = createSideBySide(desired.owned(), created, made);
        if (failure != null) {
            rollBack(made);
            if (failure instanceof KubernetesClientException api) {
                throw ApiErrors.translate(api, "create the objects of '" + plan.name() + "'");
            }
            throw failure;
        }
        return created;
    }

    /**
     * The owned objects depend on the trainer Job only, not on each other: one round trip for all
     * of them instead of one each. Every create is awaited, so that a rollback sees all that was made.
     *
     * @return the first failure, or null
     */
    private RuntimeException createSideBySide(List<HasMetadata> owned, Job owner, List<HasMetadata> made) {
        if (owned.isEmpty()) {
            return null;
        }
        List<CompletableFuture<Void>> creates = new ArrayList<>();
        for (HasMetadata object : owned.subList(1, owned.size())) {
            creates.add(CompletableFuture.runAsync(() -> createOwned(Manifests.ownedBy(owner, object), owner, made),
                    THREADS));
        }
        RuntimeException failure = null;
        try {
            createOwned(Manifests.ownedBy(owner, owned.get(0)), owner, made); // this thread would only wait
        } catch (RuntimeException e) {
            failure = e;
        }
        for (CompletableFuture<Void> create : creates) {
            try {
                create.join();
            } catch (CompletionException e) {
                failure = failure != null ? failure
                        : e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
            }
        }
        return failure;
    }

    /**
     * Creates objects owned by an existing trainer Job (the objects of a restarted job's next attempt).
     *
     * @throws ForeignObjectException when a name is still held by an object this trainer Job does not own
     */
    public void createOwnedBy(Job owner, List<HasMetadata> owned) {
        List<HasMetadata> made = new ArrayList<>();
        for (HasMetadata object : owned) {
            createOwned(Manifests.ownedBy(owner, object), owner, made);
        }
    }

    /** A create that meets its own object (a retry whose first answer was lost) has succeeded. */
    private void createOwned(HasMetadata object, Job owner, List<HasMetadata> made) {
        try {
            made.add(client.resource(object).create());
        } catch (KubernetesClientException e) {
            if (!ApiErrors.isConflict(e)) {
                throw e;
            }
            HasMetadata existing = client.resource(object).get();
            if (existing == null || !ownedBy(existing, owner)) {
                throw new ForeignObjectException(object.getKind(), object.getMetadata().getNamespace(),
                        object.getMetadata().getName());
            }
        }
    }

    private void completeIfSame(Manifests desired) {
        Job existing;
        try {
            existing = client.resource(desired.trainerJob()).get();
        } catch (KubernetesClientException e) {
            return;
        }
        if (existing == null || !Objects.equals(spec(existing), spec(desired.trainerJob()))) {
            return;
        }
        List<HasMetadata> ignored = new ArrayList<>();
        for (HasMetadata owned : desired.owned()) {
            try {
                createOwned(Manifests.ownedBy(existing, owned), existing, ignored);
            } catch (RuntimeException e) {
                log.warn("Could not complete the objects of {}: {}", existing.getMetadata().getName(), e.toString());
            }
        }
    }

    private void rollBack(List<HasMetadata> made) {
        for (int i = made.size() - 1; i >= 0; i--) {
            HasMetadata object = made.get(i);
            try {
                client.resource(object).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
            } catch (KubernetesClientException e) {
                // The Job's owner references let the garbage collector finish what we could not.
                log.warn("Could not roll back {} {}: {}", object.getKind(), object.getMetadata().getName(), e.toString());
            }
        }
    }

    static boolean ownedBy(HasMetadata object, Job owner) {
        return object.getMetadata().getOwnerReferences().stream()
                .anyMatch(ref -> owner.getMetadata().getUid().equals(ref.getUid()));
    }

    private static String spec(Job job) {
        var annotations = job.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(JobLabels.SPEC_ANNOTATION);
    }
}

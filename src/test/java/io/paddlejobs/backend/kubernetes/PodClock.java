package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.planning.LabelKeys;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * When the pods of each job in a namespace reached the points a scale run measures from, as seen
 * by a watch of the test's own (times by {@link System#nanoTime}): its trainers succeeded, its
 * pservers gone; and when its last trainer finished as its pod says ({@code finishedAt}, to the
 * second). The lag to the service's Succeeded is read from {@code finishedAt}: at 200 jobs this watch,
 * in the same loaded JVM as the service, saw trainers succeed a minute and more after the service had
 * said so. Keeps timestamps, not pods, so that the heap measured beside it is the service's.
 *
 * <p>Optionally it also acts as a plain client that follows its jobs would, as the service does:
 * once the pservers are ready it resumes the trainer Job, and once that is complete it deletes the
 * pserver Job and the Service.
 */
final class PodClock implements AutoCloseable {

    private final Map<String, Long> trainersDone = new ConcurrentHashMap<>();
    private final Map<String, Long> trainersFinishedAt = new ConcurrentHashMap<>();
    private final Map<String, Long> pserversGone = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> pserversLeft = new ConcurrentHashMap<>();
    private final Set<String> succeededPods = ConcurrentHashMap.newKeySet();
    private final Set<String> followed = ConcurrentHashMap.newKeySet();
    private final Map<String, Set<String>> pserversReady = new ConcurrentHashMap<>();
    private final Set<String> released = ConcurrentHashMap.newKeySet();
    private final KubernetesClient admin;
    private final String namespace;
    /** Zero: only watch; else a follower, which releases the trainers once this many pservers are ready. */
    private final int pserversPerJob;
    private final Watch pods;
    private final Watch jobs;
    private final ExecutorService deletes = Executors.newFixedThreadPool(4);

    PodClock(KubernetesClient admin, String namespace, int followWithPserversPerJob) {
        this.admin = admin;
        this.namespace = namespace;
        this.pserversPerJob = followWithPserversPerJob;
        boolean deletePserversWhenDone = followWithPserversPerJob > 0;
        pods = admin.pods().inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                podChanged(action, pod, System.nanoTime());
            }

            @Override
            public void onClose(WatcherException cause) {
                System.out.println("pod watch closed: " + cause.getMessage());
            }
        });
        jobs = !deletePserversWhenDone ? null : admin.batch().v1().jobs().inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Job job) {
                String name = job.getMetadata().getLabels().get(LabelKeys.NAME);
                if (name != null && job.getMetadata().getName().equals(ObjectNames.trainerJob(name)) && complete(job)
                        && followed.add(name)) {
                    deletes.submit(() -> {
                        admin.batch().v1().jobs().inNamespace(namespace).withName(ObjectNames.pserverJob(name))
                                .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
                        admin.services().inNamespace(namespace).withName(ObjectNames.service(name)).delete();
                    });
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                System.out.println("job watch closed: " + cause.getMessage());
            }
        });
    }

    private void podChanged(Watcher.Action action, Pod pod, long now) {
        String job = pod.getMetadata().getLabels().get(LabelKeys.NAME);
        String role = pod.getMetadata().getLabels().get(LabelKeys.ROLE);
        if (job == null || role == null) {
            return;
        }
        if ("pserver".equals(role)) {
            Set<String> left = pserversLeft.computeIfAbsent(job, j -> ConcurrentHashMap.newKeySet());
            if (action == Watcher.Action.DELETED) {
                left.remove(pod.getMetadata().getName());
                if (left.isEmpty()) {
                    pserversGone.merge(job, now, Math::max);
                }
            } else {
                left.add(pod.getMetadata().getName());
                if (pserversPerJob > 0 && ready(pod)) {
                    releaseWhenReady(job, pod.getMetadata().getName());
                }
            }
        } else if ("trainer".equals(role) && pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase())
                && succeededPods.add(pod.getMetadata().getName())) {
            // The first event that shows this pod Succeeded: later updates of the pod must not move it.
            trainersDone.merge(job, now, Math::max);
            finishedAt(pod).ifPresent(at -> trainersFinishedAt.merge(job, at, Math::max));
        }
    }

    /** As the service does: the trainer Job is created suspended, and resumed once every pserver is ready. */
    private void releaseWhenReady(String job, String pod) {
        Set<String> ready = pserversReady.computeIfAbsent(job, j -> ConcurrentHashMap.newKeySet());
        ready.add(pod);
        if (ready.size() >= pserversPerJob && released.add(job)) {
            deletes.submit(() -> admin.batch().v1().jobs().inNamespace(namespace).withName(ObjectNames.trainerJob(job))
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":false}}"));
        }
    }

    private static boolean ready(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static boolean complete(Job job) {
        return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions().stream()
                .anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** When the job's last trainer was seen Succeeded. */
    Optional<Long> trainersDone(String job) {
        return Optional.ofNullable(trainersDone.get(job));
    }

    /** When the job's last trainer finished, as its pod says ({@code finishedAt}, to the second), in epoch ms. */
    Optional<Long> trainersFinishedAt(String job) {
        return Optional.ofNullable(trainersFinishedAt.get(job));
    }

    private static Optional<Long> finishedAt(Pod pod) {
        return pod.getStatus().getContainerStatuses() == null ? Optional.empty() : pod.getStatus().getContainerStatuses().stream()
                .filter(c -> c.getState() != null && c.getState().getTerminated() != null
                        && c.getState().getTerminated().getFinishedAt() != null)
                .map(c -> Instant.parse(c.getState().getTerminated().getFinishedAt()).toEpochMilli())
                .max(Long::compare);
    }

    /** When the job's last pserver pod was seen deleted, if none is left. */
    Optional<Long> pserversGone(String job) {
        Set<String> left = pserversLeft.get(job);
        return left == null || !left.isEmpty() ? Optional.empty() : Optional.ofNullable(pserversGone.get(job));
    }

    /** Whether its trainers succeeded and its pservers are gone. */
    boolean done(String job) {
        return trainersDone(job).isPresent() && pserversGone(job).isPresent();
    }

    @Override
    public void close() {
        pods.close();
        if (jobs != null) {
            jobs.close();
        }
        deletes.shutdownNow();
    }
}

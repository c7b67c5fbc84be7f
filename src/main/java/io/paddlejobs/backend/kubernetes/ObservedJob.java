package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.paddlejobs.planning.Role;
import java.util.List;
import java.util.Map;

/**
 * What the cluster holds of one job, as the informers last saw it.
 *
 * @param pserverSet {@code null} when there is none (not created yet, or deleted)
 */
record ObservedJob(Job trainerJob, StatefulSet pserverSet, List<Pod> pods) {

    ObservedJob {
        pods = List.copyOf(pods);
    }

    String name() {
        return trainerJob.getMetadata().getLabels().get(JobLabels.NAME);
    }

    String namespace() {
        return trainerJob.getMetadata().getNamespace();
    }

    /** When the job was cancelled, or {@code null}. */
    String cancelledAt() {
        Map<String, String> annotations = trainerJob.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(JobLabels.CANCELLED_AT_ANNOTATION);
    }

    /** The newest pod of a replica (a replaced pod can linger while it terminates), or {@code null}. */
    Pod pod(Role role, int index) {
        Pod newest = null;
        for (Pod pod : pods) {
            if (role.label().equals(pod.getMetadata().getLabels().get(JobLabels.ROLE)) && indexOf(role, pod) == index
                    && (newest == null || created(pod).compareTo(created(newest)) > 0)) {
                newest = pod;
            }
        }
        return newest;
    }

    private int indexOf(Role role, Pod pod) {
        String text = switch (role) {
            case PSERVER -> {
                String prefix = ObjectNames.statefulSet(name()) + "-";
                String podName = pod.getMetadata().getName();
                yield podName.startsWith(prefix) ? podName.substring(prefix.length()) : null;
            }
            case TRAINER -> pod.getMetadata().getAnnotations() == null ? null
                    : pod.getMetadata().getAnnotations().get(JobLabels.COMPLETION_INDEX_ANNOTATION);
        };
        try {
            return text == null ? -1 : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String created(Pod pod) {
        String created = pod.getMetadata().getCreationTimestamp();
        return created == null ? "" : created;
    }
}

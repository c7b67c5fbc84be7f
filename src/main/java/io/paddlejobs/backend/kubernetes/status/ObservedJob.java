package io.paddlejobs.backend.kubernetes.status;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.paddlejobs.backend.kubernetes.cluster.Workloads;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.queue.KueueLabels;
import io.paddlejobs.backend.kubernetes.queue.VolcanoGroups;
import io.paddlejobs.planning.Role;
import java.util.List;
import java.util.Map;

/**
 * What the cluster holds of one job's current attempt, as the informers last saw it: pods and a
 * pserver Job of an earlier attempt (still terminating, or not yet removed after a restart) are
 * left out, so that nothing of a failed attempt is read as the new one's.
 *
 * @param pserverJob  {@code null} when there is none (not created yet, deleted, or a job without pservers)
 * @param explanation the last warning event about the job's objects, or {@code null}
 */
public record ObservedJob(Job trainerJob, Job pserverJob, List<Pod> pods, Explanation explanation) {

    /**
     * A warning the cluster wrote about one of the job's objects (an Event), or what its queue says of it.
     *
     * @param queuePosition its place in its queue, 1 for the next to start; {@code null} when not known
     */
    public record Explanation(String reason, String object, String message, Integer queuePosition) {

        public Explanation(String reason, String object, String message) {
            this(reason, object, message, null);
        }
    }

    public ObservedJob {
        int attempt = AttemptState.number(trainerJob);
        pods = pods.stream().filter(pod -> AttemptState.number(pod) == attempt).toList();
        if (pserverJob != null && AttemptState.number(pserverJob) != attempt) {
            pserverJob = null;
        }
    }

    /** The restart state the trainer Job carries. */
    public AttemptState attempts() {
        return AttemptState.of(trainerJob);
    }

    public ObservedJob(Job trainerJob, Job pserverJob, List<Pod> pods) {
        this(trainerJob, pserverJob, pods, null);
    }

    public ObservedJob explainedBy(Explanation newExplanation) {
        return new ObservedJob(trainerJob, pserverJob, pods, newExplanation);
    }

    public String name() {
        return trainerJob.getMetadata().getLabels().get(JobLabels.NAME);
    }

    public String namespace() {
        return trainerJob.getMetadata().getNamespace();
    }

    /** When the job was cancelled, or {@code null}. */
    public String cancelledAt() {
        return annotation(JobLabels.CANCELLED_AT_ANNOTATION);
    }

    /** When the service failed the job (a pserver failed, or it was pending too long), or {@code null}. */
    public String failedAt() {
        return annotation(JobLabels.FAILED_AT_ANNOTATION);
    }

    String annotation(String name) {
        Map<String, String> annotations = trainerJob.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(name);
    }

    /** The Kueue LocalQueue the job was submitted to, or {@code null} when Kueue does not manage it. */
    public String queue() {
        Map<String, String> labels = trainerJob.getMetadata().getLabels();
        return labels == null ? null : labels.get(KueueLabels.QUEUE_NAME);
    }

    /** Whether the job runs as a JobSet ({@link JobSetView}): JobSet's controller then restarts it, never the service. */
    public boolean jobSet() {
        return JobSetView.isChild(trainerJob);
    }

    /**
     * Whether Volcano places the job's pods as one gang ({@link VolcanoGroups}): as the job was created, whatever the
     * service's setting is now. Its trainers are never held back for the pservers, which are placed with them.
     */
    public boolean gang() {
        var template = trainerJob.getSpec() == null ? null : trainerJob.getSpec().getTemplate();
        return template != null && template.getSpec() != null
                && VolcanoGroups.SCHEDULER_NAME.equals(template.getSpec().getSchedulerName());
    }

    /** Whether Kueue manages the job, and so owns the suspension of its Jobs. */
    public boolean queued() {
        return queue() != null;
    }

    /** Whether the job still waits for Kueue to admit its trainers (Kueue keeps their Job suspended until then). */
    boolean waitingInQueue() {
        return queued() && trainersSuspended();
    }

    /**
     * Whether the trainers have been stopped as {@link Workloads} stops them: suspended; under Kueue, given no more
     * time and held (suspended by Kueue, its Workload deactivated) or ended. One Kueue admitted after all (its
     * Workload was made after the cancel) is not: it is stopped again.
     */
    public boolean trainersStopped() {
        if (!queued()) {
            return trainersSuspended();
        }
        return trainerJob.getSpec() != null
                && Long.valueOf(Workloads.NO_MORE_TIME).equals(trainerJob.getSpec().getActiveDeadlineSeconds())
                && (trainersSuspended() || JobStatusMapper.condition(trainerJob, "Complete") != null
                        || JobStatusMapper.condition(trainerJob, "Failed") != null);
    }

    /** Whether the trainer Job is held back: waiting for the pservers, or stopped. */
    public boolean trainersSuspended() {
        return trainerJob.getSpec() != null && Boolean.TRUE.equals(trainerJob.getSpec().getSuspend());
    }

    /** Whether the pservers are stopped or gone (under Kueue their Job is deleted rather than suspended). */
    public boolean pserversSuspended() {
        return pserverJob == null || pserverJob.getSpec() != null && Boolean.TRUE.equals(pserverJob.getSpec().getSuspend());
    }

    /** The newest pod of a replica (a replaced pod can linger while it terminates), or {@code null}. */
    public Pod pod(Role role, int index) {
        Pod newest = null;
        for (Pod pod : pods) {
            if (role.label().equals(pod.getMetadata().getLabels().get(JobLabels.ROLE)) && indexOf(pod) == index
                    && (newest == null || created(pod).compareTo(created(newest)) > 0)) {
                newest = pod;
            }
        }
        return newest;
    }

    /** Both roles run as Indexed Jobs: the Job controller writes each pod's index as an annotation. */
    private static int indexOf(Pod pod) {
        String text = pod.getMetadata().getAnnotations() == null ? null
                : pod.getMetadata().getAnnotations().get(JobLabels.COMPLETION_INDEX_ANNOTATION);
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

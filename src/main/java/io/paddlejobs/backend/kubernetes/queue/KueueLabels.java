package io.paddlejobs.backend.kubernetes.queue;

import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.cluster.Workloads;
import io.paddlejobs.backend.kubernetes.manifest.MaxRunTime;
import io.paddlejobs.planning.JobPlan;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What puts a job into a Kueue queue: labels on its Jobs, which Kueue's webhook reads when they
 * are created. A job is Kueue-managed exactly when it has a queue (the request's, else the
 * namespace's default in {@code paddlejobs.kubernetes.queues}); Kueue then owns {@code spec.suspend}
 * of its Jobs (it suspends what it has not admitted and resumes what it has), so the service never
 * writes it for such a job ({@link Workloads}).
 */
public final class KueueLabels {

    /** What every key of Kueue's starts with. */
    public static final String PREFIX = "kueue.x-k8s.io/";
    public static final String QUEUE_NAME = "kueue.x-k8s.io/queue-name";
    public static final String PRIORITY_CLASS = "kueue.x-k8s.io/priority-class";
    /** Kueue stops (evicts and deactivates) a workload that has run this long since admission. */
    public static final String MAX_EXEC_TIME = "kueue.x-k8s.io/max-exec-time-seconds";
    /** Set by Kueue on the Workload it makes for a Job: the Job's uid. */
    public static final String JOB_UID = "kueue.x-k8s.io/job-uid";

    private KueueLabels() {
    }

    /**
     * The LocalQueue the job waits in, or {@code null} when Kueue is not to manage it (always, when Volcano
     * schedules the service's jobs: the queue is then Volcano's, {@link VolcanoGroups}).
     */
    public static String queue(JobPlan plan, KubernetesProperties settings) {
        if (VolcanoGroups.chosen(settings)) {
            return null;
        }
        String asked = plan.spec().placement().queue();
        return asked != null ? asked : settings.queues().get(plan.namespace());
    }

    /** The labels of a role's Job: queue and priority, and on the trainers the maximum run time. */
    public static Map<String, String> of(JobPlan plan, KubernetesProperties settings, boolean trainers) {
        Map<String, String> labels = new LinkedHashMap<>();
        String queue = queue(plan, settings);
        if (queue == null) {
            return labels;
        }
        labels.put(QUEUE_NAME, queue);
        String priority = plan.spec().placement().priority();
        if (priority != null) {
            labels.put(PRIORITY_CLASS, priority);
        }
        Long maxRunTime = MaxRunTime.seconds(plan);
        if (trainers && maxRunTime != null) {
            labels.put(MAX_EXEC_TIME, Long.toString(maxRunTime));
        }
        return labels;
    }
}

package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.paddlejobs.backend.kubernetes.KubernetesSite;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.status.JobSetView;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.SharedValues;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Recovers a job's plan from its trainer Job: the request kept in its annotation is planned
 * again. Planning is a pure function of the request, so this gives the plan the job was started
 * with, except where an operator has since changed a default; the image, which such a change
 * would most visibly break, is taken from the Job itself. Limits are not applied again: a job
 * that was admitted stays visible when limits are lowered.
 *
 * <p>Plans are kept per job (keyed by the Job's uid, so a job deleted and submitted again is
 * planned again) and forgotten when the job is.
 */
public final class PlanRecovery {

    private record Entry(String uid, JobPlan plan) {
    }

    private final JobPlanner planner;
    private final Map<JobKey, Entry> plans = new ConcurrentHashMap<>();

    public PlanRecovery(JobPlanner planner) {
        this.planner = planner.withoutLimits();
    }

    /** @throws IllegalArgumentException when the Job carries no spec this service can read */
    public JobPlan planOf(Job trainerJob) {
        String uid = trainerJob.getMetadata().getUid();
        JobKey key = ClusterCache.jobKey(trainerJob);
        Entry entry = plans.get(key);
        if (entry != null && entry.uid() != null && entry.uid().equals(uid)) {
            return entry.plan();
        }
        JobPlan plan = replan(trainerJob);
        plans.put(key, new Entry(uid, plan));
        return plan;
    }

    public void forget(JobKey key) {
        plans.remove(key);
    }

    private JobPlan replan(Job trainerJob) {
        var annotations = trainerJob.getMetadata().getAnnotations();
        String spec = annotations == null ? null : annotations.get(JobLabels.SPEC_ANNOTATION);
        if (spec == null) {
            throw new IllegalArgumentException("no " + JobLabels.SPEC_ANNOTATION + " annotation");
        }
        // The hosts follow the workload this job runs as, whatever the service would choose for a new one.
        JobPlan plan = planner.plan(SpecCodec.read(spec), trainerJob.getMetadata().getNamespace(),
                new KubernetesSite(JobSetView.isChild(trainerJob)));
        String image = trainerJob.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
        // Every replica's environment repeats the same lists and names, and a plan is kept for every job in the cluster.
        return new SharedValues().compact(plan.withImage(image));
    }
}

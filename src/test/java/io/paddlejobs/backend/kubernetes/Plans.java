package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.util.Map;

/** Plans for tests, made by the real planner with the shipped defaults on the Kubernetes site. */
public final class Plans {

    static final JobPlanner PLANNER = new JobPlanner(Settings.planningPolicyWithoutGpuRules());

    private Plans() {
    }

    /** {@code trainers} trainers and as many pservers, each trainer with one CPU. */
    public static JobRequest request(String name, int trainers) {
        return JobRequests.named(name, "python train.py").numCpus(trainers).build();
    }

    /** {@code trainers} trainers of one CPU each, and no pservers. */
    public static JobRequest collectiveRequest(String name, int trainers) {
        return JobRequests.named(name, "python train.py").numCpus(trainers).mode(JobMode.COLLECTIVE).build();
    }

    public static JobRequest gpuRequest(String name, int gpus) {
        return JobRequests.named(name, "python train.py").pserverEntryPoint("paddle pserver --port=$PADDLE_PORT")
                .image("example/paddle:gpu").numGpus(gpus).memory("8Gi")
                .env(Map.of("USER_SETTING", "costs $$5 or $(HOME)")).labels(Map.of("team", "vision")).build();
    }

    public static JobPlan plan(JobRequest request) {
        return plan(request, "ml");
    }

    public static JobPlan plan(JobRequest request, String namespace) {
        return PLANNER.plan(request, namespace, new KubernetesSite());
    }

    /** The plan as a JobSet runs it: its hosts are the JobSet's child Jobs' ({@link KubernetesSite}). */
    public static JobPlan planAsJobSet(JobRequest request, String namespace) {
        return PLANNER.plan(request, namespace, new KubernetesSite(true));
    }

    public static JobPlan plan(String name, int trainers) {
        return plan(request(name, trainers));
    }
}

package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.planning.Role;
import java.util.List;

/** What a test reads of a job on a real cluster, as an admin sees it and as the service reports it. */
record ClusterReads(KubernetesClient admin) {

    Job trainerJob(String ns, String job) {
        return admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.trainerJob(job)).get();
    }

    List<Pod> pods(String ns, String job, Role role) {
        return admin.pods().inNamespace(ns).withLabels(JobLabels.selector(job, role)).list().getItems();
    }

    static boolean suspended(Job job) {
        return job != null && Boolean.TRUE.equals(job.getSpec().getSuspend());
    }

    /** How many of the pods run and are not being removed. */
    static long running(List<Pod> pods) {
        return pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null
                && "Running".equals(p.getStatus().getPhase())).count();
    }

    static JobPhase phase(MockCluster.Backend backend, JobKey key) {
        return backend.jobs().find(key).map(j -> j.status().phase()).orElse(null);
    }

    static String message(MockCluster.Backend backend, JobKey key) {
        return backend.jobs().find(key).map(j -> j.status().message()).map(String::valueOf).orElse("");
    }
}

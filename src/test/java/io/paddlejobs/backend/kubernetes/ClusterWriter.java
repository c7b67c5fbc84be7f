package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import java.util.function.UnaryOperator;

/** Plays the controllers and kubelets the mock server lacks: writes what they would write. */
public record ClusterWriter(KubernetesClient admin) {

    Job trainerJob(String ns, String job) {
        return admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.trainerJob(job)).get();
    }

    Job pserverJob(String ns, String job) {
        return admin.batch().v1().jobs().inNamespace(ns).withName(ObjectNames.pserverJob(job)).get();
    }

    void updatePserverJob(String ns, String job, UnaryOperator<Job> change) {
        admin.resource(change.apply(pserverJob(ns, job))).updateStatus();
    }

    void updateTrainerJob(String ns, String job, UnaryOperator<Job> change) {
        Job changed = change.apply(trainerJob(ns, job));
        admin.resource(changed).updateStatus();
    }

    /** Creates or replaces a pod, status included. */
    public void put(Pod pod) {
        admin.resource(pod).createOr(existing -> existing.update());
        admin.resource(pod).updateStatus();
    }
}

package io.paddlejobs.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ContainerResource;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.Loggable;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A replica's log, read from the API server (the kubelet keeps it). The pod is found in the
 * informer cache: a pserver's by its stable name, a trainer's by its completion index. What a read
 * of a trainer's whole log passes on is noted as its sign of life ({@link TrainerLines}).
 */
final class LogStreams {

    private final KubernetesClient client;
    private final TrainerLines lines;

    LogStreams(KubernetesClient client, TrainerLines lines) {
        this.client = client;
        this.lines = lines;
    }

    /** Writes nothing when the replica has no pod (not created yet, or removed after the job ended). */
    void write(ObservedJob job, Role role, int index, Integer tail, boolean follow, OutputStream out) throws IOException {
        var pod = job.pod(role, index);
        String podName = pod != null ? pod.getMetadata().getName()
                : role == Role.PSERVER ? ObjectNames.podHostname(job.name(), role, index) : null;
        if (podName == null) {
            return;
        }
        ContainerResource container = client.pods().inNamespace(job.namespace()).withName(podName)
                .inContainer(PodParts.MAIN_CONTAINER);
        Loggable log = tail != null ? container.tailingLines(tail) : container;
        if (role == Role.TRAINER && tail == null) {
            out = lines.noting(new JobKey(job.namespace(), job.name()), index, podName, out);
        }
        try {
            if (follow) {
                // Closing the watch when the caller goes away (a failed write) ends the stream upstream too.
                try (LogWatch watch = log.watchLog()) {
                    watch.getOutput().transferTo(out);
                }
            } else {
                try (InputStream in = log.getLogInputStream()) {
                    in.transferTo(out);
                }
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 400) {
                return; // gone, or not started yet: no log to show
            }
            throw ApiErrors.translate(e, "read the log of " + Replica.idOf(role, index));
        }
        out.flush();
    }
}

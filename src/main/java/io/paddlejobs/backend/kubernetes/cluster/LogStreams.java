package io.paddlejobs.backend.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.URLUtils;
import io.paddlejobs.backend.kubernetes.lifecycle.TrainerLines;
import io.paddlejobs.backend.kubernetes.manifest.ObjectNames;
import io.paddlejobs.backend.kubernetes.manifest.PodParts;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A replica's log, read from the API server (the kubelet keeps it). The pod is found in the
 * informer cache: a pserver's by its stable name, a trainer's by its completion index. What a read
 * of a trainer's whole log passes on is noted as its sign of life ({@link TrainerLines}).
 */
public final class LogStreams {

    private static final int BAD_REQUEST = 400;
    private static final int NOT_FOUND = 404;

    private final KubernetesClient client;
    private final TrainerLines lines;

    public LogStreams(KubernetesClient client, TrainerLines lines) {
        this.client = client;
        this.lines = lines;
    }

    /** Writes nothing when the replica has no pod (not created yet, or removed after the job ended). */
    public void write(ObservedJob job, Role role, int index, Integer tail, boolean follow, OutputStream out) throws IOException {
        var pod = job.pod(role, index);
        String podName = pod != null ? pod.getMetadata().getName()
                : role == Role.PSERVER ? ObjectNames.podHostname(job.name(), role, index) : null;
        if (podName == null) {
            return;
        }
        if (role == Role.TRAINER && tail == null) {
            out = lines.noting(new JobKey(job.namespace(), job.name()), index, podName, out);
        }
        try (InputStream in = open(job.namespace(), podName, tail, follow, Replica.idOf(role, index))) {
            if (in == null) {
                return; // gone, or not started yet: no log to show
            }
            // Closing the stream when the caller goes away (a failed write) ends the follow upstream too.
            in.transferTo(out);
        }
        out.flush();
    }

    /**
     * The log as the API server serves it, asked for in one request. fabric8's own log reads first
     * wait for the pod to be ready, which is a list (and a watch) of pods per read: on a cluster of
     * thousands of trainers each followed for its metrics, more than the log itself.
     *
     * @return the log, or {@code null} when the pod or its container has none (gone, or not started)
     */
    private InputStream open(String namespace, String podName, Integer tail, boolean follow, String replica)
            throws IOException {
        String query = "?pretty=false&container=" + PodParts.MAIN_CONTAINER + (tail != null ? "&tailLines=" + tail : "")
                + (follow ? "&follow=true" : "");
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(URLUtils.join(client.getMasterUrl().toString(), "api", "v1", "namespaces", namespace, "pods", podName,
                        "log") + query)
                .forStreaming().build();
        HttpResponse<InputStream> response;
        try {
            response = http.sendAsync(request, InputStream.class)
                    .get(client.getConfiguration().getRequestTimeout(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while asking for the log of " + replica);
        } catch (ExecutionException | TimeoutException e) {
            throw ApiErrors.translate(new KubernetesClientException("no answer: " + e.getMessage(), e), "read the log of " + replica);
        }
        if (response.isSuccessful()) {
            return response.body();
        }
        String answer;
        try (InputStream body = response.body()) {
            answer = body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (response.code() == NOT_FOUND || response.code() == BAD_REQUEST) {
            return null;
        }
        Status status = statusIn(answer);
        String message = status != null && status.getMessage() != null ? status.getMessage() : answer;
        throw ApiErrors.translate(new KubernetesClientException(message, response.code(), status), "read the log of " + replica);
    }

    /** The API server's own account of a refusal, when its answer is one. */
    private Status statusIn(String answer) {
        try {
            return client.getKubernetesSerialization().unmarshal(answer, Status.class);
        } catch (RuntimeException notAStatus) {
            return null;
        }
    }
}

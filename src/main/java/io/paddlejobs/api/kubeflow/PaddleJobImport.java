package io.paddlejobs.api.kubeflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A Kubeflow training-operator {@code kubeflow.org/v1} PaddleJob, read as it is, turned into this
 * service's request document (snake_case fields, as {@code POST /jobs} takes them). Every field of the
 * manifest is accounted for: carried to a request field, dropped where leaving it out cannot change what
 * the job computes (with the reason), or refused where the service cannot honour it (the import is
 * refused, each such field named with the reason). Fields nobody listed are refused: a manifest field
 * this importer does not know could matter.
 *
 * <p>The {@code Master} replicas are the pservers (Kubeflow's ps mode), the {@code Worker} replicas the
 * trainers; without {@code Master} the job is collective. Secrets stay references
 * ({@code env_from_secrets}): the manifest never holds a value, and neither does the request.
 */
public final class PaddleJobImport {

    /** A manifest field and what became of it: the request field it went to, or why it was dropped or refused. */
    public record Note(String field, String to, String reason) {
    }

    /** The request document, and the manifest's fields: carried, dropped and refused. */
    public record Result(Map<String, Object> request, List<Note> carried, List<Note> dropped, List<Note> refused) {
    }

    static final String MASTER = "Master";
    static final String WORKER = "Worker";

    private final Map<String, Object> request = new LinkedHashMap<>();
    private final List<Note> carried = new ArrayList<>();
    private final List<Note> dropped = new ArrayList<>();
    private final List<Note> refused = new ArrayList<>();

    private PaddleJobImport() {
    }

    /** @param manifest the manifest as YAML or JSON reads it: maps, lists, strings, numbers and booleans */
    public static Result of(Object manifest) {
        PaddleJobImport conversion = new PaddleJobImport();
        conversion.manifest(manifest);
        return new Result(conversion.request, conversion.carried, conversion.dropped, conversion.refused);
    }

    private void manifest(Object document) {
        Map<String, Object> manifest = map(document, "(manifest)");
        if (manifest == null) {
            return;
        }
        for (var field : manifest.entrySet()) {
            String key = field.getKey();
            Object value = field.getValue();
            switch (key) {
                case "apiVersion" -> {
                    if (!"kubeflow.org/v1".equals(value)) {
                        refuse(key, "must be kubeflow.org/v1: this importer reads the training-operator's PaddleJob");
                    }
                }
                case "kind" -> {
                    if (!"PaddleJob".equals(value)) {
                        refuse(key, "must be PaddleJob");
                    }
                }
                case "metadata" -> metadata(map(value, key));
                case "spec" -> spec(map(value, key));
                case "status" -> drop(key, "a status is what a cluster reports, not part of the request");
                default -> unknown(key);
            }
        }
        if (!manifest.containsKey("apiVersion") || !manifest.containsKey("kind")) {
            refuse("apiVersion", "a PaddleJob manifest names apiVersion kubeflow.org/v1 and kind PaddleJob");
        }
        if (!manifest.containsKey("spec")) {
            refuse("spec.paddleReplicaSpecs", "is required: a PaddleJob's replicas are the job");
        }
    }

    private void metadata(Map<String, Object> metadata) {
        if (metadata == null) {
            return;
        }
        for (var field : metadata.entrySet()) {
            String path = "metadata." + field.getKey();
            switch (field.getKey()) {
                case "name" -> carry(path, "name", field.getValue());
                case "namespace" -> drop(path, "the job goes to the namespace of the submit (its namespace parameter,"
                        + " or the caller's token), not the manifest's");
                case "generateName" -> drop(path, "a job without a name is given one by the service");
                case "labels" -> labels(map(field.getValue(), path));
                case "annotations" -> drop(path, "the service sets its pods' annotations; none of the manifest's changes"
                        + " what the job computes");
                case "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink" ->
                        drop(path, "the cluster's bookkeeping of the object it was read from");
                default -> unknown(path);
            }
        }
    }

    private void labels(Map<String, Object> labels) {
        if (labels == null) {
            return;
        }
        Map<String, Object> kept = new LinkedHashMap<>();
        labels.forEach((key, value) -> {
            String path = "metadata.labels." + key;
            switch (key) {
                case "kueue.x-k8s.io/queue-name" -> carry(path, "queue", value);
                case "kueue.x-k8s.io/priority-class" -> carry(path, "priority", value);
                default -> {
                    kept.put(key, value);
                    carried.add(new Note(path, "labels." + key, null));
                }
            }
        });
        if (!kept.isEmpty()) {
            request.put("labels", kept);
        }
    }

    private void spec(Map<String, Object> spec) {
        if (spec == null) {
            return;
        }
        for (var field : spec.entrySet()) {
            String path = "spec." + field.getKey();
            switch (field.getKey()) {
                case "paddleReplicaSpecs" -> replicaSpecs(map(field.getValue(), path));
                case "runPolicy" -> runPolicy(map(field.getValue(), path));
                case "elasticPolicy" -> refuse(path, "elastic jobs (a varying number of trainers) are not run here:"
                        + " give a fixed Worker replicas");
                default -> unknown(path);
            }
        }
        if (!spec.containsKey("paddleReplicaSpecs")) {
            refuse("spec.paddleReplicaSpecs", "is required: a PaddleJob's replicas are the job");
        }
    }

    private void replicaSpecs(Map<String, Object> specs) {
        if (specs == null) {
            return;
        }
        specs.keySet().stream().filter(role -> !role.equals(MASTER) && !role.equals(WORKER))
                .forEach(role -> refuse("spec.paddleReplicaSpecs." + role, "a PaddleJob's replicas are Master"
                        + " (parameter servers) and Worker (trainers)"));
        Map<String, Object> worker = map(specs.get(WORKER), "spec.paddleReplicaSpecs." + WORKER);
        if (worker == null) {
            refuse("spec.paddleReplicaSpecs." + WORKER, "is required: the trainers");
            return;
        }
        Map<String, Object> master = map(specs.get(MASTER), "spec.paddleReplicaSpecs." + MASTER);
        request.put("mode", specs.containsKey(MASTER) ? "ps" : "collective");
        boolean ps = specs.containsKey(MASTER);
        ReplicaSpec trainers = ReplicaSpec.read(this, WORKER, worker, ps);
        ReplicaSpec pservers = master == null ? null : ReplicaSpec.read(this, MASTER, master, ps);
        trainers.carryAsTrainers(this);
        if (pservers != null) {
            pservers.carryAsPservers(this, trainers);
        }
        new RoleEnvironments(trainers, pservers).carry(this);
        placement(trainers, pservers);
    }

    /** Every replica is placed alike here, so the two roles must ask for the same nodes and volumes. */
    private void placement(ReplicaSpec trainers, ReplicaSpec pservers) {
        if (pservers != null) {
            sameForBoth(trainers.placement().nodeSelector(), pservers.placement().nodeSelector(), "nodeSelector");
            sameForBoth(trainers.placement().tolerations(), pservers.placement().tolerations(), "tolerations");
            sameForBoth(trainers.placement().nodeAffinity(), pservers.placement().nodeAffinity(), "affinity");
            sameForBoth(trainers.placement().volumes(), pservers.placement().volumes(), "volumes");
        }
        var placement = trainers.placement();
        String at = ReplicaSpec.templateSpec(WORKER);
        if (!placement.nodeSelector().isEmpty()) {
            carried(at + ".nodeSelector", "node_selector");
        }
        if (!placement.tolerations().isEmpty()) {
            carried(at + ".tolerations", "tolerations");
        }
        if (!placement.nodeAffinity().isEmpty()) {
            carried(at + ".affinity.nodeAffinity", "node_affinity");
        }
        put("node_selector", placement.nodeSelector());
        put("tolerations", placement.tolerations());
        put("node_affinity", placement.nodeAffinity());
        put("volumes", placement.volumes());
        if (placement.shmSize() != null) {
            request.put("shm_size", placement.shmSize());
        }
    }

    private void sameForBoth(Object trainers, Object pservers, String field) {
        if (!Objects.equals(trainers, pservers)) {
            refuse(ReplicaSpec.templateSpec(MASTER) + "." + field, "differs from the Worker's: every replica of a job"
                    + " is placed alike here (node_selector, tolerations, node_affinity, volumes are per job)");
        }
    }

    private void runPolicy(Map<String, Object> policy) {
        if (policy == null) {
            return;
        }
        for (var field : policy.entrySet()) {
            String path = "spec.runPolicy." + field.getKey();
            Object value = field.getValue();
            switch (field.getKey()) {
                case "cleanPodPolicy" -> drop(path, "the service keeps a finished job's pods until the job is deleted,"
                        + " and its logs in the history after that");
                case "ttlSecondsAfterFinished" -> drop(path, "finished jobs stay until deleted; the history keeps them"
                        + " for paddlejobs.history.retention");
                case "activeDeadlineSeconds" -> {
                    if (value instanceof Number seconds) {
                        carried.add(new Note(path, "max_run_time", null));
                        request.put("max_run_time", seconds.longValue() + "s");
                    } else {
                        refuse(path, "must be a number of seconds");
                    }
                }
                case "backoffLimit" -> carry(path, "max_restarts", value);
                case "suspend" -> {
                    if (Boolean.TRUE.equals(value)) {
                        refuse(path, "a job here starts when submitted (or waits in its queue): submit it when it"
                                + " should run, and leave suspend out");
                    } else {
                        drop(path, "false: the job starts when submitted, as here");
                    }
                }
                case "schedulingPolicy" -> schedulingPolicy(map(value, path));
                case "managedBy" -> drop(path, "this service runs the job, whoever the manifest named");
                default -> unknown(path);
            }
        }
    }

    private void schedulingPolicy(Map<String, Object> policy) {
        if (policy == null) {
            return;
        }
        for (var field : policy.entrySet()) {
            String path = "spec.runPolicy.schedulingPolicy." + field.getKey();
            switch (field.getKey()) {
                case "queue" -> carry(path, "queue", field.getValue());
                case "priorityClass" -> carry(path, "priority", field.getValue());
                case "minAvailable" -> drop(path, "every replica of a job starts together here: with the operator's"
                        + " gang scheduler (paddlejobs.kubernetes.scheduler volcano) all of them, else as each fits");
                case "scheduleTimeoutSeconds" -> drop(path, "a job waits in its queue until it fits");
                default -> unknown(path);
            }
        }
    }

    // What the parts below report through.

    void carry(String path, String to, Object value) {
        if (value == null) {
            return;
        }
        carried.add(new Note(path, to, null));
        request.put(to, value);
    }

    void carried(String path, String to) {
        carried.add(new Note(path, to, null));
    }

    void put(String field, Object value) {
        if (value instanceof Map<?, ?> map && map.isEmpty() || value instanceof List<?> list && list.isEmpty()) {
            return;
        }
        if (value != null) {
            request.put(field, value);
        }
    }

    void drop(String path, String reason) {
        dropped.add(new Note(path, null, reason));
    }

    void refuse(String path, String reason) {
        refused.add(new Note(path, null, reason));
    }

    void unknown(String path) {
        refuse(path, "is not a field this importer knows it may leave out: remove it, or submit the job's request"
                + " yourself (docs/kubeflow.md)");
    }

    /** The value as a map, or {@code null} after refusing the field when it is something else. */
    @SuppressWarnings("unchecked")
    Map<String, Object> map(Object value, String path) {
        if (value == null) {
            return null;
        }
        if (value instanceof Map<?, ?> map && map.keySet().stream().allMatch(String.class::isInstance)) {
            return (Map<String, Object>) map;
        }
        refuse(path, "must be an object");
        return null;
    }

    /** The value as a list, or an empty one after refusing the field when it is something else. */
    List<?> list(Object value, String path) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return list;
        }
        refuse(path, "must be a list");
        return List.of();
    }

    static final Set<String> SAFE_CONTAINER_FIELDS = Set.of("imagePullPolicy", "terminationMessagePath",
            "terminationMessagePolicy", "livenessProbe", "readinessProbe", "startupProbe", "securityContext", "stdin",
            "stdinOnce", "tty");

    static final Set<String> SAFE_POD_FIELDS = Set.of("restartPolicy", "terminationGracePeriodSeconds",
            "schedulerName", "priorityClassName", "dnsPolicy", "enableServiceLinks", "securityContext");
}

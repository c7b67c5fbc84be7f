package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.planning.JobEvent;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.RunTimeLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A job's request as the JSON kept on its trainer Job, in the request document's own field
 * names. The cluster is the only record of a job, so this is what the plan is recovered from;
 * fields are named here one by one so that renaming a Java field cannot silently change it
 * (a golden file pins the text, and its test fails when a request field is not written here).
 */
public final class SpecCodec {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private SpecCodec() {
    }

    public static String write(JobRequest r) {
        var code = r.code();
        var topology = r.topology();
        var compute = r.compute();
        var lifecycle = r.lifecycle();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", r.name());
        fields.put("entry_point", code.entryPoint());
        fields.put("pserver_entry_point", code.pserverEntryPoint());
        fields.put("image", code.image());
        fields.put("num_gpus", compute.numGpus());
        fields.put("num_cpus", compute.numCpus());
        fields.put("memory", text(compute.memory()));
        fields.put("trainers", topology.trainers());
        fields.put("trainer_cpu", compute.trainerCpu());
        fields.put("trainer_gpu", compute.trainerGpu());
        fields.put("trainer_mem", text(compute.trainerMem()));
        fields.put("pservers", topology.pservers());
        fields.put("pserver_cpu", compute.pserverCpu());
        fields.put("pserver_mem", text(compute.pserverMem()));
        fields.put("port", topology.port());
        fields.put("ports_num", topology.portsNum());
        fields.put("ports_num_for_sparse", topology.portsNumForSparse());
        fields.put("use_gpu", compute.useGpu());
        fields.put("env", new TreeMap<>(code.env()));
        fields.put("labels", new TreeMap<>(r.placement().labels()));
        fields.put("queue", r.placement().queue());
        fields.put("priority", r.placement().priority());
        fields.put("account", r.placement().account());
        fields.put("partition", r.placement().partition());
        fields.put("qos", r.placement().qos());
        fields.put("mode", topology.mode() == null ? null : topology.mode().label());
        fields.put("max_run_time", duration(lifecycle.maxRunTime()));
        fields.put("package", code.codePackage());
        fields.put("max_restarts", lifecycle.maxRestarts());
        fields.put("restart_on", lifecycle.restartOn() == null ? null : lifecycle.restartOn().wire());
        fields.put("stall_timeout", duration(lifecycle.stallTimeout()));
        fields.put("debug_hold", duration(lifecycle.debugHold()));
        fields.put("notify", notify(r.notifications().webhooks()));
        var placement = r.placement();
        fields.put("pserver_image", code.pserverImage());
        fields.put("pserver_env", sortedOrNull(code.pserverEnv()));
        fields.put("trainer_env", sortedOrNull(code.trainerEnv()));
        fields.put("env_from_secrets", secrets(code.envFromSecrets()));
        fields.put("shm_size", text(compute.shmSize()));
        fields.put("node_selector", sortedOrNull(placement.nodeSelector()));
        fields.put("tolerations", listOrNull(placement.tolerations().stream().map(t -> present(
                "key", t.key(), "operator", t.operator(), "value", t.value(), "effect", t.effect())).toList()));
        fields.put("node_affinity", listOrNull(placement.nodeAffinity().stream().map(a -> {
            Map<String, Object> written = present("key", a.key(), "operator", a.operator());
            if (!a.values().isEmpty()) {
                written.put("values", a.values());
            }
            return written;
        }).toList()));
        fields.put("volumes", listOrNull(placement.volumes().stream().map(v -> present(
                "claim", v.claim(), "config_map", v.configMap(), "mount_path", v.mountPath())).toList()));
        fields.values().removeIf(value -> value == null);
        return JSON.writeValueAsString(fields);
    }

    /** @throws IllegalArgumentException when the text is not a spec this service wrote */
    public static JobRequest read(String json) {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a job spec: " + e.getMessage(), e);
        }
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("not a job spec: expected a JSON object");
        }
        return new JobRequest(str(n, "name"),
                new JobRequest.Code(str(n, "entry_point"), str(n, "pserver_entry_point"), str(n, "image"),
                        str(n, "pserver_image"), str(n, "package"), strings(n, "env"), strings(n, "pserver_env"),
                        strings(n, "trainer_env"), secrets(n)),
                new JobRequest.Topology(n.hasNonNull("mode") ? JobMode.fromLabel(n.get("mode").asString()) : null,
                        integer(n, "trainers"), integer(n, "pservers"),
                        integer(n, "port"), integer(n, "ports_num"), integer(n, "ports_num_for_sparse")),
                new JobRequest.Compute(integer(n, "num_gpus"), integer(n, "num_cpus"), memory(n, "memory"),
                        integer(n, "trainer_cpu"), integer(n, "trainer_gpu"), memory(n, "trainer_mem"),
                        integer(n, "pserver_cpu"), memory(n, "pserver_mem"),
                        n.hasNonNull("use_gpu") ? n.get("use_gpu").asBoolean() : null, memory(n, "shm_size")),
                new JobRequest.Placement(strings(n, "labels"), str(n, "queue"), str(n, "priority"),
                        str(n, "account"), str(n, "partition"), str(n, "qos"), strings(n, "node_selector"),
                        items(n, "tolerations", t -> new JobRequest.Toleration(str(t, "key"), str(t, "operator"),
                                str(t, "value"), str(t, "effect"))),
                        items(n, "node_affinity", a -> new JobRequest.NodeRequirement(str(a, "key"), str(a, "operator"),
                                items(a, "values", JsonNode::asString))),
                        items(n, "volumes", v -> new JobRequest.Volume(str(v, "claim"), str(v, "config_map"),
                                str(v, "mount_path")))),
                new JobRequest.Lifecycle(duration(n, "max_run_time"), integer(n, "max_restarts"), restartOn(n),
                        duration(n, "stall_timeout"), duration(n, "debug_hold")),
                new JobRequest.Notifications(notify(n)));
    }

    private static List<Map<String, Object>> notify(List<JobRequest.Notify> targets) {
        if (targets.isEmpty()) {
            return null;
        }
        List<Map<String, Object>> written = new ArrayList<>();
        for (JobRequest.Notify target : targets) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("url", target.url());
            if (target.events() != null) {
                fields.put("events", target.events().stream().map(JobEvent::wireName).toList());
            }
            written.add(fields);
        }
        return written;
    }

    private static List<JobRequest.Notify> notify(JsonNode n) {
        List<JobRequest.Notify> targets = new ArrayList<>();
        if (n.hasNonNull("notify")) {
            n.get("notify").forEach(target -> {
                List<JobEvent> events = null;
                if (target.hasNonNull("events")) {
                    events = new ArrayList<>();
                    for (JsonNode event : target.get("events")) {
                        events.add(JobEvent.parse(event.asString()));
                    }
                }
                targets.add(new JobRequest.Notify(str(target, "url"), events));
            });
        }
        return targets;
    }

    /** A word, or a list of words and exit codes. */
    private static RestartOn restartOn(JsonNode n) {
        if (!n.hasNonNull("restart_on")) {
            return null;
        }
        JsonNode value = n.get("restart_on");
        if (!value.isArray()) {
            return RestartOn.parse(value.asString());
        }
        List<Object> items = new ArrayList<>();
        value.forEach(item -> items.add(item.isNumber() ? (Object) item.asInt() : item.asString()));
        return RestartOn.parse(items);
    }

    private static Map<String, Object> secrets(Map<String, JobRequest.SecretKey> secrets) {
        if (secrets.isEmpty()) {
            return null;
        }
        Map<String, Object> written = new TreeMap<>();
        secrets.forEach((name, ref) -> written.put(name, present("secret", ref.secret(), "key", ref.key())));
        return written;
    }

    private static Map<String, JobRequest.SecretKey> secrets(JsonNode n) {
        Map<String, JobRequest.SecretKey> secrets = new LinkedHashMap<>();
        if (n.hasNonNull("env_from_secrets")) {
            n.get("env_from_secrets").properties().forEach(entry -> secrets.put(entry.getKey(),
                    new JobRequest.SecretKey(str(entry.getValue(), "secret"), str(entry.getValue(), "key"))));
        }
        return secrets;
    }

    /** The pairs whose values are given, in order. */
    private static Map<String, Object> present(Object... pairs) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                fields.put((String) pairs[i], pairs[i + 1]);
            }
        }
        return fields;
    }

    private static Map<String, String> sortedOrNull(Map<String, String> map) {
        return map.isEmpty() ? null : new TreeMap<>(map);
    }

    private static <T> List<T> listOrNull(List<T> list) {
        return list.isEmpty() ? null : list;
    }

    private static <T> List<T> items(JsonNode n, String field, java.util.function.Function<JsonNode, T> read) {
        List<T> items = new ArrayList<>();
        if (n.hasNonNull(field)) {
            n.get(field).forEach(item -> items.add(read.apply(item)));
        }
        return items;
    }

    private static String text(Memory memory) {
        return memory == null ? null : memory.toString();
    }

    private static String duration(Duration duration) {
        return duration == null ? null : RunTimeLimit.format(duration);
    }

    private static Duration duration(JsonNode n, String field) {
        return n.hasNonNull(field) ? RunTimeLimit.parse(n.get(field).asString()) : null;
    }

    private static String str(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asString() : null;
    }

    private static Integer integer(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asInt() : null;
    }

    private static Memory memory(JsonNode n, String field) {
        return n.hasNonNull(field) ? Memory.parse(n.get(field).asString()) : null;
    }

    private static Map<String, String> strings(JsonNode n, String field) {
        Map<String, String> values = new LinkedHashMap<>();
        if (n.hasNonNull(field)) {
            n.get(field).properties().forEach(entry -> values.put(entry.getKey(), entry.getValue().asString()));
        }
        return values;
    }
}

package io.paddlejobs.backend.kubernetes;

import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.RunTimeLimit;
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
 * fields are named here one by one so that renaming a Java field cannot silently change it.
 */
final class SpecCodec {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private SpecCodec() {
    }

    static String write(JobRequest r) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", r.name());
        fields.put("entry_point", r.entryPoint());
        fields.put("pserver_entry_point", r.pserverEntryPoint());
        fields.put("image", r.image());
        fields.put("num_gpus", r.numGpus());
        fields.put("num_cpus", r.numCpus());
        fields.put("memory", text(r.memory()));
        fields.put("trainers", r.trainers());
        fields.put("trainer_cpu", r.trainerCpu());
        fields.put("trainer_gpu", r.trainerGpu());
        fields.put("trainer_mem", text(r.trainerMem()));
        fields.put("pservers", r.pservers());
        fields.put("pserver_cpu", r.pserverCpu());
        fields.put("pserver_mem", text(r.pserverMem()));
        fields.put("port", r.port());
        fields.put("ports_num", r.portsNum());
        fields.put("ports_num_for_sparse", r.portsNumForSparse());
        fields.put("use_gpu", r.useGpu());
        fields.put("env", new TreeMap<>(r.env()));
        fields.put("labels", new TreeMap<>(r.labels()));
        fields.put("mode", r.mode() == null ? null : r.mode().label());
        fields.put("max_run_time", r.maxRunTime() == null ? null : RunTimeLimit.format(r.maxRunTime()));
        fields.put("package", r.codePackage());
        fields.put("max_restarts", r.maxRestarts());
        fields.put("restart_on", r.restartOn() == null ? null : r.restartOn().wire());
        fields.put("stall_timeout", r.stallTimeout() == null ? null : RunTimeLimit.format(r.stallTimeout()));
        fields.values().removeIf(value -> value == null);
        return JSON.writeValueAsString(fields);
    }

    /** @throws IllegalArgumentException when the text is not a spec this service wrote */
    static JobRequest read(String json) {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a job spec: " + e.getMessage(), e);
        }
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("not a job spec: expected a JSON object");
        }
        return new JobRequest(str(n, "name"), str(n, "entry_point"), str(n, "pserver_entry_point"), str(n, "image"),
                integer(n, "num_gpus"), integer(n, "num_cpus"), memory(n, "memory"),
                integer(n, "trainers"), integer(n, "trainer_cpu"), integer(n, "trainer_gpu"), memory(n, "trainer_mem"),
                integer(n, "pservers"), integer(n, "pserver_cpu"), memory(n, "pserver_mem"),
                integer(n, "port"), integer(n, "ports_num"), integer(n, "ports_num_for_sparse"),
                n.hasNonNull("use_gpu") ? n.get("use_gpu").asBoolean() : null,
                strings(n, "env"), strings(n, "labels"),
                n.hasNonNull("mode") ? JobMode.fromLabel(n.get("mode").asString()) : null,
                n.hasNonNull("max_run_time") ? RunTimeLimit.parse(n.get("max_run_time").asString()) : null,
                str(n, "package"), integer(n, "max_restarts"), restartOn(n),
                n.hasNonNull("stall_timeout") ? RunTimeLimit.parse(n.get("stall_timeout").asString()) : null);
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

    private static String text(Memory memory) {
        return memory == null ? null : memory.toString();
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

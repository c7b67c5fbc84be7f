package io.paddlejobs.backend.slurm.client;

import io.paddlejobs.backend.slurm.SlurmChoices;
import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * How one generation of slurmrestd's data parser writes a job down. v0.0.38 (Slurm 22.05) took
 * plain numbers, an environment object and the script beside the job; v0.0.40 and later (Slurm
 * 24.05 onwards) take numbers as {@code {"set", "number"}} objects, the environment as
 * {@code NAME=value} strings and the script in the job, and list a job's state as its base state
 * followed by its flags. The URLs and the answers' other fields are the same in both.
 */
sealed interface SlurmRestDialect permits SlurmRestDialect.V38, SlurmRestDialect.V40 {

    /** The data parser, as in the URL: {@code v0.0.38}. */
    String version();

    /** The body of {@code POST /job/submit}. */
    ObjectNode submitBody(JsonMapper json, BatchJob job, String replicaPath);

    /** One entry of {@code GET /jobs}' {@code jobs}. */
    SlurmJobInfo job(JsonNode j);

    static SlurmRestDialect of(String version) {
        return version.equals(V38.VERSION) ? new V38() : new V40(version);
    }

    /** Slurm 22.05's {@code openapi/v0.0.38}. */
    record V38() implements SlurmRestDialect {

        static final String VERSION = "v0.0.38";

        @Override
        public String version() {
            return VERSION;
        }

        @Override
        public ObjectNode submitBody(JsonMapper json, BatchJob job, String replicaPath) {
            ObjectNode body = json.createObjectNode();
            body.put("script", "#!/bin/bash\n" + job.body());
            if (job.components().size() == 1) {
                body.set("job", component(json, job, job.components().get(0), replicaPath));
            } else {
                var array = body.putArray("jobs");
                job.components().forEach(c -> array.add(component(json, job, c, replicaPath)));
            }
            return body;
        }

        private static ObjectNode component(JsonMapper json, BatchJob job, BatchJob.Component component, String replicaPath) {
            ObjectNode p = common(json, job);
            // The REST daemon passes no environment of its own: the batch step gets only this.
            p.putObject("environment").put("PATH", replicaPath);
            p.put("memory_per_cpu", component.memoryPerCpuMb());
            if (component.gpusPerTask() > 0) {
                p.put("gpus_per_task", Integer.toString(component.gpusPerTask()));
            }
            if (job.timeLimitMinutes() > 0) {
                p.put("time_limit", job.timeLimitMinutes());
            }
            return tasks(p, component);
        }

        @Override
        public SlurmJobInfo job(JsonNode j) {
            int status = j.path("exit_code").asInt();
            return new SlurmJobInfo(j.path("job_id").asLong(), j.path("het_job_id").asLong(),
                    j.path("het_job_offset").asInt(), j.path("name").asString(), j.path("job_state").asString(),
                    j.path("state_reason").asString("None"),
                    // a raw wait status: exit code in the high byte, signal in the low bits
                    (status >> 8) & 0xff, status & 0x7f, j.path("nodes").asString(""), j.path("time_limit").asLong(),
                    epoch(j.path("start_time").asLong()), epoch(j.path("end_time").asLong()));
        }
    }

    /** {@code v0.0.40} to {@code v0.0.45} (Slurm 24.05 to 26.05). */
    record V40(String version) implements SlurmRestDialect {

        @Override
        public ObjectNode submitBody(JsonMapper json, BatchJob job, String replicaPath) {
            ObjectNode body = json.createObjectNode();
            var array = body.putArray("jobs");
            for (BatchJob.Component c : job.components()) {
                ObjectNode p = common(json, job);
                // The REST daemon passes no environment of its own: the batch step gets only this.
                p.putArray("environment").add("PATH=" + replicaPath);
                number(p, "memory_per_cpu", c.memoryPerCpuMb());
                if (c.gpusPerTask() > 0) {
                    // there is no gpus_per_task any more; --gpus-per-task is this TRES
                    p.put("tres_per_task", "gres/gpu:" + c.gpusPerTask());
                }
                if (job.timeLimitMinutes() > 0) {
                    number(p, "time_limit", job.timeLimitMinutes());
                }
                array.add(tasks(p, c));
            }
            // Only the first component's script is honoured.
            ((ObjectNode) array.get(0)).put("script", "#!/bin/bash\n" + job.body());
            if (job.components().size() == 1) {
                body.set("job", body.remove("jobs").get(0));
            }
            return body;
        }

        private static void number(ObjectNode p, String field, long value) {
            p.putObject(field).put("set", true).put("number", value);
        }

        @Override
        public SlurmJobInfo job(JsonNode j) {
            JsonNode exit = j.path("exit_code");
            return new SlurmJobInfo(j.path("job_id").asLong(), number(j.path("het_job_id")),
                    (int) number(j.path("het_job_offset")), j.path("name").asString(), state(j.path("job_state")),
                    j.path("state_reason").asString("None"), (int) number(exit.path("return_code")),
                    (int) number(exit.path("signal").path("id")), j.path("nodes").asString(""),
                    number(j.path("time_limit")), epoch(number(j.path("start_time"))), epoch(number(j.path("end_time"))));
        }

        /** A {@code {"set", "infinite", "number"}} object's number; 0 when unset or infinite. */
        private static long number(JsonNode n) {
            return n.path("set").asBoolean() && !n.path("infinite").asBoolean() ? n.path("number").asLong() : 0;
        }

        /**
         * The one word {@code scontrol} shows for the list {@code [base, flags...]}: a flag that
         * means the job is still busy (completing, configuring, requeued ...) before its base
         * state, in scontrol's order, so both clients report the same.
         */
        static String state(JsonNode states) {
            if (!states.isArray() || states.isEmpty()) {
                return states.asString("UNKNOWN");
            }
            for (String flag : SHOWN_FLAGS) {
                for (JsonNode s : states) {
                    if (s.asString().equals(flag)) {
                        return flag;
                    }
                }
            }
            return states.get(0).asString();
        }

        private static final java.util.List<String> SHOWN_FLAGS = java.util.List.of("COMPLETING", "STAGE_OUT",
                "CONFIGURING", "RESIZING", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "SPECIAL_EXIT", "STOPPED",
                "REVOKED", "RESV_DEL_HOLD", "SIGNALING");
    }

    /** What every component says in both generations. */
    private static ObjectNode common(JsonMapper json, BatchJob job) {
        ObjectNode p = json.createObjectNode();
        p.put("name", job.name());
        p.put("current_working_directory", job.workDir().toString());
        p.put("standard_output", job.output().toString());
        p.put("standard_error", job.output().toString());
        p.put("requeue", false);
        SlurmChoices choices = job.choices();
        if (!choices.partition().isEmpty()) {
            p.put("partition", choices.partition());
        }
        if (!choices.account().isEmpty()) {
            p.put("account", choices.account());
        }
        if (!choices.qos().isEmpty()) {
            p.put("qos", choices.qos());
        }
        return p;
    }

    private static ObjectNode tasks(ObjectNode p, BatchJob.Component component) {
        p.put("tasks", component.tasks());
        p.put("cpus_per_task", component.cpusPerTask());
        return p;
    }

    private static Instant epoch(long seconds) {
        return seconds > 0 ? Instant.ofEpochSecond(seconds) : null;
    }
}

package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The policy, site and request shorthand the planning tests share. A request is written as the
 * user writes it, with the JSON field names: {@code "num_gpus=4 trainer_mem=2Gi"}.
 */
final class PlannerFixtures {

    static final String JOB = "job";
    static final String NAMESPACE = "default";
    static final String ENTRY_POINT = "python train.py";

    static final PlanningPolicy POLICY = new PlanningPolicy(
            new PlanningPolicy.Defaults("paddlepaddle/paddle:2.6.1", "default", 1, Memory.parse("1Gi"),
                    1, Memory.parse("1Gi"), 7164, 1, 1),
            new PlanningPolicy.Limits(64, 64, 16, 256, Memory.parse("512Gi")));

    /** Hosts as the kubernetes backend names them: {@code job-pserver-0.job}; data under the namespace. */
    static final Site SITE = new Site() {
        @Override
        public String host(String namespace, String job, Role role, int index) {
            return job + "-" + role.label() + "-" + index + "." + job;
        }

        @Override
        public String dataPath(String namespace, String job) {
            return "/data/" + namespace;
        }
    };

    private static final Set<String> FIELDS = Set.of("name", "pserver_entry_point", "image", "num_gpus", "num_cpus",
            "memory", "trainers", "trainer_cpu", "trainer_gpu", "trainer_mem", "pservers", "pserver_cpu", "pserver_mem",
            "port", "ports_num", "ports_num_for_sparse", "use_gpu", "mode");

    private PlannerFixtures() {
    }

    static JobPlan plan(String spec) {
        return plan(request(spec, Map.of()));
    }

    static JobPlan plan(JobRequest request) {
        return new JobPlanner(POLICY).plan(request, NAMESPACE, SITE);
    }

    static InvalidJobRequestException rejection(String spec) {
        InvalidJobRequestException e = catchThrowableOfType(InvalidJobRequestException.class, () -> plan(spec));
        if (e == null) {
            throw new AssertionError("expected '" + spec + "' to be rejected, but it was planned");
        }
        return e;
    }

    /** Parses {@code "field=value field=value"}; an unknown field name fails the test rather than being ignored. */
    static JobRequest request(String spec, Map<String, String> env) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String pair : spec.strip().split("\\s+")) {
            if (pair.isEmpty()) {
                continue;
            }
            String[] kv = pair.split("=", 2);
            if (!FIELDS.contains(kv[0]) || kv.length != 2) {
                throw new IllegalArgumentException("bad field in test spec: " + pair);
            }
            f.put(kv[0], kv[1]);
        }
        return new JobRequest(f.getOrDefault("name", JOB), ENTRY_POINT, f.get("pserver_entry_point"), f.get("image"),
                integer(f, "num_gpus"), integer(f, "num_cpus"), memory(f, "memory"),
                integer(f, "trainers"), integer(f, "trainer_cpu"), integer(f, "trainer_gpu"), memory(f, "trainer_mem"),
                integer(f, "pservers"), integer(f, "pserver_cpu"), memory(f, "pserver_mem"),
                integer(f, "port"), integer(f, "ports_num"), integer(f, "ports_num_for_sparse"),
                f.containsKey("use_gpu") ? Boolean.valueOf(f.get("use_gpu")) : null, env, Map.of(),
                f.containsKey("mode") ? JobMode.fromLabel(f.get("mode")) : null, null, null);
    }

    private static Integer integer(Map<String, String> f, String name) {
        return f.containsKey(name) ? Integer.valueOf(f.get(name)) : null;
    }

    private static Memory memory(Map<String, String> f, String name) {
        return f.containsKey(name) ? Memory.parse(f.get(name)) : null;
    }
}

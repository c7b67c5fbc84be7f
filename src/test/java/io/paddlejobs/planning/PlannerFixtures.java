package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;

/**
 * The policy, site and request shorthand the planning tests share. A request is written as the
 * user writes it, with the JSON field names: {@code "num_gpus=4 trainer_mem=2Gi"}.
 */
final class PlannerFixtures {

    static final String JOB = JobRequests.JOB;
    static final String NAMESPACE = "default";
    static final String ENTRY_POINT = JobRequests.ENTRY_POINT;

    static final PlanningPolicy POLICY = new PlanningPolicy(
            new PlanningPolicy.Defaults("paddlepaddle/paddle:2.6.1", 1, Memory.parse("1Gi"),
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

    /** The rules a request breaks; empty when it plans. */
    static java.util.List<Violation> violations(String spec) {
        try {
            plan(spec);
            return java.util.List.of();
        } catch (InvalidJobRequestException e) {
            return e.violations();
        }
    }

    /** {@link JobRequests#spec}, with {@code env}. */
    static JobRequest request(String spec, Map<String, String> env) {
        return JobRequests.spec(spec).env(env).build();
    }
}

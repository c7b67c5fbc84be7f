package io.paddlejobs.api;

import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.JobPlan;
import java.util.List;
import java.util.Map;

/** What a submit would do: the plan, and the objects the backend would create (none locally). */
record DryRunView(boolean dryRun, String name, String namespace, List<String> warnings, JobPlan plan,
                  List<Map<String, Object>> manifests) {

    static DryRunView of(JobService.DryRun dryRun) {
        JobPlan plan = dryRun.plan();
        return new DryRunView(true, plan.name(), plan.namespace(), plan.warnings(), plan, dryRun.manifests());
    }
}

package io.paddlejobs.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.JobPlan;
import java.util.List;
import java.util.Map;

/** What a submit would do: the plan, and the objects the backend would create (none locally). */
public record DryRunView(boolean dryRun, String name, String namespace, List<String> warnings, JobPlan plan,
                  List<Map<String, Object>> manifests) {

    /** Tells a submit's 200 answers apart: a dry run, not the existing job's {@code Job}. */
    @JsonProperty("kind")
    String kind() {
        return "DryRun";
    }

    static DryRunView of(JobService.DryRun dryRun) {
        JobPlan plan = dryRun.plan();
        return new DryRunView(true, plan.name(), plan.namespace(), plan.warnings(), plan, dryRun.manifests());
    }
}

package io.paddlejobs.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.paddlejobs.job.JobService;
import io.paddlejobs.planning.JobPlan;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/** What a submit would do: the plan, and the objects the backend would create (none locally). */
public record DryRunView(boolean dryRun, String name, String namespace, List<String> warnings, JobPlan plan,
                  List<Map<String, Object>> manifests,
                  @Schema(description = "With offline=true: what a submit would check that this dry run could not, "
                          + "as it asked the cluster nothing (the data claim, quotas, admission, scheduling)")
                  List<String> unchecked) {

    /** Tells a submit's 200 answers apart: a dry run, not the existing job's {@code Job}. */
    @JsonProperty("kind")
    String kind() {
        return "DryRun";
    }

    static DryRunView of(JobService.DryRun dryRun) {
        JobPlan plan = dryRun.plan();
        return new DryRunView(true, plan.name(), plan.namespace(), plan.warnings(), plan, dryRun.manifests(),
                dryRun.unchecked());
    }
}

package io.paddlejobs.sweeps;

import io.paddlejobs.planning.Violation;
import io.paddlejobs.security.Tenant;
import java.util.ArrayList;
import java.util.List;

/** The rules across a sweep's own fields (its trials are {@link SweepPlanner}'s): pure. */
final class SweepRules {

    private SweepRules() {
    }

    static List<Violation> check(SweepRequest request, Tenant owner) {
        List<Violation> violations = new ArrayList<>();
        SweepRequest.EarlyStopping early = request.earlyStopping();
        if (early != null && request.objective() == null) {
            violations.add(new Violation(List.of("early_stopping", "objective"),
                    "needs an objective: early stopping judges trials by one", null));
        }
        if (early != null && early.asha()) {
            if (early.minStep() == null || early.minStep() < 1) {
                violations.add(Violation.of("early_stopping.min_step", early.minStep(), "asha needs its first rung, 1 or more"));
            }
            if (early.maxStep() == null) {
                violations.add(Violation.of("early_stopping.max_step", null, "asha needs a full trial's steps"));
            } else if (early.minStep() != null && early.minStep() >= early.maxStep()) {
                violations.add(new Violation(List.of("early_stopping.min_step", "early_stopping.max_step"),
                        "the first rung must come before a full trial's end: min_step below max_step", null));
            }
            if (early.minTrials() != null) {
                violations.add(Violation.of("early_stopping.min_trials", early.minTrials(), "is for the median rule"));
            }
        }
        if (early != null && !early.asha()) {
            if (early.maxStep() != null) {
                violations.add(Violation.of("early_stopping.max_step", early.maxStep(), "is for asha"));
            }
            if (early.reductionFactor() != null) {
                violations.add(Violation.of("early_stopping.reduction_factor", early.reductionFactor(), "is for asha"));
            }
        }
        int unfinished = owner.limits().maxUnfinishedJobs();
        if (unfinished > 0 && request.parallelOrDefault() > unfinished) {
            violations.add(Violation.of("parallel", request.parallelOrDefault(), "must be at most " + unfinished
                    + ": the namespace may hold that many unfinished jobs (paddlejobs.security.limits.max-unfinished-jobs),"
                    + " and every unfinished trial is one"));
        }
        return violations;
    }
}

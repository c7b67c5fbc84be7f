package io.paddlejobs.sweeps;

import java.util.Map;
import java.util.Optional;

/**
 * Whether a running trial goes on: judged on its objective curve against the other trials' (running,
 * finished or stopped: every one that got as far). Pure: the same curves give the same decision, so a
 * service that takes a sweep over decides as the one before it did.
 */
sealed interface StoppingRule permits MedianStopping, SuccessiveHalving {

    /**
     * @param trial  the trial to judge, as its sweep keeps it (what was judged before)
     * @param curve  its objective so far
     * @param others every other trial's number and curve, and its state
     * @return the trial as judged now: a later {@code judgedStep} or new rungs, and {@code stopped} with why
     *         when it should stop
     */
    TrialState judge(TrialState trial, Curve curve, Map<TrialState, Curve> others);

    static Optional<StoppingRule> of(SweepRequest request) {
        SweepRequest.EarlyStopping early = request.earlyStopping();
        if (early == null || request.objective() == null) {
            return Optional.empty();
        }
        return Optional.of(early.asha()
                ? new SuccessiveHalving(request.objective(), early.minStep(), early.maxStep(),
                        early.reductionFactor() == null ? 3 : early.reductionFactor())
                : new MedianStopping(request.objective(), early.minStep() == null ? 0 : early.minStep(),
                        early.minTrials() == null ? 3 : early.minTrials()));
    }
}

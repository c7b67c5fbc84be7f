package io.paddlejobs.sweeps;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The median stopping rule (Golovin et al., "Google Vizier", 2017): at its latest step s, a trial whose
 * best value so far is worse than the median of the other trials' running averages up to s is stopped.
 * The others are every trial that reported step s, running ones included (Vizier counts only completed
 * ones; here trials run side by side, and waiting for completed ones would judge the first ones never);
 * at least {@code minTrials} of them, and no trial before {@code minStep}.
 */
record MedianStopping(SweepRequest.Objective objective, long minStep, int minTrials) implements StoppingRule {

    @Override
    public TrialState judge(TrialState trial, Curve curve, Map<TrialState, Curve> others) {
        long step = curve.lastStep();
        if (step < minStep || (trial.judgedStep() != null && trial.judgedStep() == step)) {
            return trial;
        }
        double[] averages = others.values().stream().filter(other -> other.lastStep() >= step)
                .mapToDouble(other -> other.averageUpTo(step).orElseThrow()).sorted().toArray();
        if (averages.length < minTrials) {
            return trial; // judged once enough others got this far
        }
        double median = median(averages);
        OptionalDouble best = curve.bestUpTo(objective, step);
        String stopped = best.isPresent() && Goal.better(objective, median, best.getAsDouble())
                ? "%s %s at step %d is worse than %s, the median of %d other trials' running averages at that step (median stopping rule)"
                        .formatted(objective.metric(), ParameterValues.text(best.getAsDouble()), step,
                                ParameterValues.text(median), averages.length)
                : null;
        return trial.judged(step, trial.rungs(), stopped);
    }

    private static double median(double[] sorted) {
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}

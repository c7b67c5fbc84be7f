package io.paddlejobs.sweeps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Asynchronous successive halving (ASHA, Li et al., 2020), on steps: rungs at {@code minStep},
 * {@code minStep * factor}, ... below {@code maxStep}. When a trial reaches a rung its objective there is
 * recorded, and it goes on only if it is among the best {@code 1/factor} of what every trial recorded at
 * that rung so far: it is stopped when it is worse than that quantile (linearly interpolated, as Ray Tune's
 * ASHA does). The first trial at a rung always goes on; trials are never held back to wait for others.
 */
record SuccessiveHalving(SweepRequest.Objective objective, long minStep, long maxStep, int factor) implements StoppingRule {

    List<Long> rungs() {
        List<Long> rungs = new ArrayList<>();
        for (long rung = Math.max(1, minStep); rung < maxStep; rung = Math.multiplyExact(rung, factor)) {
            rungs.add(rung);
        }
        return rungs;
    }

    @Override
    public TrialState judge(TrialState trial, Curve curve, Map<TrialState, Curve> others) {
        Map<Long, Double> recorded = new LinkedHashMap<>(trial.rungs());
        for (long rung : rungs()) {
            if (curve.lastStep() < rung || recorded.containsKey(rung)) {
                continue;
            }
            Optional<Curve.Point> value = curve.value(objective, rung);
            if (value.isEmpty()) {
                continue;
            }
            recorded.put(rung, value.get().value());
            List<Double> atRung = new ArrayList<>();
            others.keySet().stream().map(other -> other.rungs().get(rung)).filter(v -> v != null).forEach(atRung::add);
            atRung.add(value.get().value());
            double cutoff = cutoff(atRung);
            if (Goal.score(objective, value.get().value()) < cutoff) {
                return trial.judged(trial.judgedStep(), recorded, "%s %s at rung %d is not among the best 1/%d of the %d trials that reached it (asha)"
                        .formatted(objective.metric(), ParameterValues.text(value.get().value()), rung, factor, atRung.size()));
            }
        }
        return recorded.equals(trial.rungs()) ? trial : trial.judged(trial.judgedStep(), recorded, null);
    }

    /** The score (higher is better) at the (1 - 1/factor) quantile of the recorded values. */
    private double cutoff(List<Double> values) {
        double[] scores = values.stream().mapToDouble(v -> Goal.score(objective, v)).sorted().toArray();
        double position = (1.0 - 1.0 / factor) * (scores.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(scores.length - 1, below + 1);
        return scores[below] + (position - below) * (scores[above] - scores[below]);
    }
}

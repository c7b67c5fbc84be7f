package io.paddlejobs.sweeps;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobService;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.ErrorResponseException;

/**
 * One sweep as the replica that holds its claim drives it, one look at a time ({@link #step}): how its
 * trials stand, their objectives, what the stopping rule decides, which trials start next, and whether it
 * is over. Every decision is in the store before it acts (a trial stopped, the claim renewed before a
 * submit), so a replica that takes the sweep over after a crash finds the decision and does not make a
 * second one. Trials are named by their number, and an identical resubmit starts nothing: a trial whose
 * submit was not yet written down is found, not started twice. Runs on the driver's thread only.
 */
final class SweepRun {

    private static final Logger log = LoggerFactory.getLogger(SweepRun.class);

    private final SweepKey key;
    private final SweepDriver.Context context;
    /** Objective curves read so far, by trial number; those of settled trials are final and not read again. */
    private final Map<Integer, Curve> curves = new HashMap<>();
    private final Set<Integer> settled = new java.util.HashSet<>();
    private final Set<String> reported = new TreeSet<>();
    private Instant leaseUntil;
    private boolean firstLook = true;

    SweepKey key() {
        return key;
    }

    SweepRun(SweepKey key, SweepDriver.Context context, Instant leaseUntil) {
        this.key = key;
        this.context = context;
        this.leaseUntil = leaseUntil;
    }

    /** One look; false once this replica no longer drives the sweep (it ended, was cancelled or deleted, or the claim was lost). */
    boolean step(Instant now) {
        Optional<SweepRecord> found = context.store().find(key);
        if (found.isEmpty() || !context.me().equals(found.get().driver())) {
            return false;
        }
        SweepRecord sweep = found.get();
        if (sweep.finished()) {
            if (sweep.cancelledAt() != null) {
                context.cancelLiveTrials(sweep);
            }
            return false;
        }
        SweepState before = sweep.state();
        SweepState state = observe(sweep, before, now);
        state = judge(sweep, state);
        state = submitNext(sweep, state, now);
        if (state == null) {
            return false;
        }
        SweepWords.Outcome outcome = SweepWords.of(sweep.request(), state, reported);
        state = state.withWords(outcome.reason(), outcome.message(), outcome.warnings());
        boolean over = outcome.phase().isFinished() && state.trials().stream().allMatch(t -> settled.contains(t.number()));
        JobPhase phase = over ? outcome.phase() : outcome.phase().isFinished() ? JobPhase.RUNNING : outcome.phase();
        if (over || !state.equals(before) || phase != sweep.phase() || needsRenewal(now)) {
            return save(phase, state, over ? now : null, now) && !over;
        }
        return true;
    }

    /** How each submitted trial's job stands now, and its objective so far. */
    private SweepState observe(SweepRecord sweep, SweepState state, Instant now) {
        // Trials start in order: after a crash between a submit and its writing down, only the first few
        // unsubmitted ones can have a job. They are looked for once, at the first look of this replica.
        int unsubmittedToCheck = firstLook ? sweep.request().parallelOrDefault() : 0;
        firstLook = false;
        for (int i = 0; i < state.trials().size(); i++) {
            TrialState trial = state.trials().get(i);
            if (trial.finished() && settled.contains(trial.number())) {
                continue;
            }
            if (!trial.submitted() && unsubmittedToCheck-- <= 0) {
                continue;
            }
            Optional<Job> job = context.jobs().find(new JobKey(key.namespace(), trial.job()));
            if (!trial.submitted() && job.isEmpty()) {
                continue;
            }
            TrialState seen = job.map(j -> trial.asSubmitted(j.status().phase(),
                            trial.earlyStopped() ? TrialState.EARLY_STOPPED : j.status().reason(),
                            trial.earlyStopped() ? trial.stopped() : j.status().message()))
                    .orElseGet(() -> trial.asSubmitted(JobPhase.CANCELLED, "Deleted", "its job was deleted"));
            // A trial's objective is settled once its metrics are complete (its last lines are read after its end).
            boolean objectiveSettled = true;
            if (job.isPresent() && sweep.request().objective() != null) {
                MetricsSnapshot snapshot = context.metrics().read(job.get(), 0);
                seen = withObjective(sweep.request().objective(), seen, snapshot);
                objectiveSettled = snapshot.complete();
            }
            if (seen.finished() && objectiveSettled) {
                settled.add(seen.number());
            }
            int index = i;
            TrialState changed = seen;
            state = state.withTrial(index, t -> changed);
        }
        return state;
    }

    private TrialState withObjective(SweepRequest.Objective objective, TrialState trial, MetricsSnapshot snapshot) {
        reported.addAll(snapshot.metrics().keySet());
        Curve curve = Curve.of(snapshot, objective.metric());
        curves.put(trial.number(), curve);
        return curve.value(objective, Long.MAX_VALUE)
                .map(point -> trial.withObjective(point.value(), point.step(), curve.lastStep()))
                .orElse(trial);
    }

    /** The stopping rule on each running trial this replica runs; a stop is written down before it is made. */
    private SweepState judge(SweepRecord sweep, SweepState state) {
        Optional<StoppingRule> rule = StoppingRule.of(sweep.request());
        if (rule.isEmpty()) {
            return state;
        }
        for (int i = 0; i < state.trials().size(); i++) {
            TrialState trial = state.trials().get(i);
            JobKey job = new JobKey(key.namespace(), trial.job());
            if (!trial.unfinished() || context.jobs().findLive(job).isEmpty()) {
                continue; // judged where it runs: a replica cannot stop another's local trial
            }
            TrialState judged = trial.earlyStopped() ? trial : rule.get().judge(trial,
                    curves.getOrDefault(trial.number(), Curve.NONE), others(state, trial));
            state = state.withTrial(i, t -> judged);
            if (judged.earlyStopped() && save(sweep.phase(), state, null, context.clock().instant())) {
                stop(job, judged.stopped());
            }
        }
        return state;
    }

    private Map<TrialState, Curve> others(SweepState state, TrialState trial) {
        Map<TrialState, Curve> others = new java.util.LinkedHashMap<>();
        state.trials().stream().filter(t -> t.number() != trial.number() && curves.containsKey(t.number()))
                .forEach(t -> others.put(t, curves.get(t.number())));
        return others;
    }

    private void stop(JobKey job, String why) {
        try {
            context.jobs().cancel(job, TrialState.EARLY_STOPPED, "stopped early: " + why);
        } catch (RuntimeException e) {
            log.warn("Sweep {}: could not stop trial {} early ({}); tried again at the next look", key, job.name(), e.toString());
        }
    }

    /**
     * Starts waiting trials, in order, while fewer than {@code parallel} are unfinished. The claim is renewed
     * (with what is decided so far) before each submit: a replica that lost it starts nothing. A refusal
     * worth waiting out (a rate, a quota, the store away: 429, 503) leaves the trial waiting, its words in
     * the sweep's message; any other refusal fails that trial. Null when the claim was lost.
     */
    private SweepState submitNext(SweepRecord sweep, SweepState state, Instant now) {
        String waiting = null;
        if (SweepWords.WAITING.equals(state.reason())) {
            state = state.withWords(null, null, state.warnings()); // told again below if it still waits
        }
        for (int i = 0; i < state.trials().size(); i++) {
            TrialState trial = state.trials().get(i);
            if (trial.submitted() || state.unfinished() >= sweep.request().parallelOrDefault()) {
                continue;
            }
            if (!save(JobPhase.RUNNING, state, null, now)) {
                return null;
            }
            try {
                Job job = context.submit(sweep, trial).job();
                state = state.withTrial(i, t -> t.asSubmitted(job.status().phase(), job.status().reason(), job.status().message()));
            } catch (RuntimeException refused) {
                int status = refused instanceof ErrorResponseException problem ? problem.getStatusCode().value()
                        : refused instanceof io.paddlejobs.planning.InvalidJobRequestException ? 400 : 500;
                String why = refused instanceof ErrorResponseException problem && problem.getBody().getDetail() != null
                        ? problem.getBody().getDetail() : refused.getMessage();
                if (status == 429 || status >= 500) {
                    if (status == 500) {
                        log.warn("Sweep {}: submitting trial {} failed; tried again at the next look", key, trial.job(), refused);
                    }
                    waiting = "trial " + trial.job() + " waits: " + why;
                    break;
                }
                state = state.withTrial(i, t -> t.asSubmitted(JobPhase.FAILED, "NotSubmitted", why));
                settled.add(trial.number());
            }
        }
        return waiting == null ? state : state.withWords(SweepWords.WAITING, waiting, state.warnings());
    }

    private boolean needsRenewal(Instant now) {
        return Duration.between(now, leaseUntil).compareTo(context.lease().dividedBy(2)) < 0;
    }

    private boolean save(JobPhase phase, SweepState state, Instant finishedAt, Instant now) {
        Instant until = now.plus(context.lease());
        boolean held = context.store().save(key, context.me(), phase, state, finishedAt, until);
        if (held) {
            leaseUntil = until;
        }
        return held;
    }
}

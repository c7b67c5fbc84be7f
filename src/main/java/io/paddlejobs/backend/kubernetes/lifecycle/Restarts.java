package io.paddlejobs.backend.kubernetes.lifecycle;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.DeletableWithOptions;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.paddlejobs.backend.kubernetes.KubernetesJobBackend;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.cluster.ClusterCache;
import io.paddlejobs.backend.kubernetes.cluster.DataClaim;
import io.paddlejobs.backend.kubernetes.cluster.ForeignObjectException;
import io.paddlejobs.backend.kubernetes.cluster.JobCreator;
import io.paddlejobs.backend.kubernetes.cluster.LogStreams;
import io.paddlejobs.backend.kubernetes.cluster.Workloads;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import io.paddlejobs.backend.kubernetes.manifest.ShippedCode;
import io.paddlejobs.backend.kubernetes.status.AttemptState;
import io.paddlejobs.backend.kubernetes.status.JobOutcome;
import io.paddlejobs.backend.kubernetes.status.ObservedJob;
import io.paddlejobs.backend.kubernetes.status.PodFields;
import io.paddlejobs.job.Attempt;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RestartDecision;
import io.paddlejobs.job.attempt.AttemptLedger;
import io.paddlejobs.job.attempt.Ending;
import io.paddlejobs.job.attempt.StallWatch;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.ErrorResponseException;

/**
 * Whole-job restarts on Kubernetes: what ended a failed attempt ({@link #ending}), what that leads to
 * (decided by {@link AttemptLedger}, the same on every backend), and the two changes that carry a restart out. Paddle's jobs cannot take back one lost
 * replica, so a restart is the whole job, made anew:
 * <ol>
 *   <li>{@link #restart}: the failed attempt's trainer Job is deleted (only if it is still the one the
 *       decision was made from), with it its pserver Job, Service and pods (each pod gets SIGTERM and the
 *       termination grace period); at once a new trainer Job of the same name is created, suspended,
 *       carrying the restart count, the attempts so far and when the next attempt starts;</li>
 *   <li>{@link #startAttempt}: once the backoff has passed, the new attempt's Service and pserver Job are
 *       created, owned by the new trainer Job, whose trainers are released as on a first run.</li>
 * </ol>
 * Every pod carries its attempt's number ({@link JobLabels#ATTEMPT}), so a pod of an earlier attempt
 * that still terminates is never taken for one of the new attempt. Names stay the same, so replica
 * hosts (and the environment that lists them) are the same in every attempt.
 */
public final class Restarts {

    private static final Logger log = LoggerFactory.getLogger(Restarts.class);
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
    private static final int CONFLICT = 409;
    private static final int NOT_FOUND = 404;

    private final KubernetesClient client;
    private final ClusterCache cache;
    private final KubernetesProperties settings;
    private final KubernetesJobBackend.DataClaims claims;
    private final ShippedCode.Source code;
    private final JobCreator creator;
    private final LogStreams logs;

    /**
     * @param cache where the failed attempt stands in for the job while its next attempt is made
     * @param logs  where the failed attempt's logs are read before its pods go ({@link EarlierLogs})
     */
    public Restarts(KubernetesClient client, ClusterCache cache, KubernetesProperties settings,
             KubernetesJobBackend.DataClaims claims, ShippedCode.Source code, LogStreams logs) {
        this.client = client;
        this.logs = logs;
        this.cache = cache;
        this.settings = settings;
        this.claims = claims;
        this.code = code;
        this.creator = new JobCreator(client, settings);
    }

    /**
     * What a job whose current attempt failed leads to, when it may restart: the next attempt, or the
     * failure saying the restarts are spent. Empty for a job with no restarts to spend, for a failure no
     * restart applies to ({@code max_run_time}), and for a first attempt whose failure is not retried:
     * those end as they always did.
     */
    static Optional<JobLifecycle.Action> after(JobPlan plan, ObservedJob job, JobStatus status, Instant now,
                                               RestartBackoff backoff) {
        if (status.phase() != JobPhase.FAILED || job.cancelledAt() != null || job.failedAt() != null
                || plan.spec().lifecycle().maxRestartsOrDefault() == 0) {
            return Optional.empty();
        }
        AttemptState state = job.attempts();
        Optional<RestartDecision> decided = new AttemptLedger(state.number(), state.ended())
                .after(plan.spec(), ending(status.reason(), status.message(), firstFailed(status)), backoff);
        if (decided.isEmpty()) {
            return Optional.empty();
        }
        RestartDecision decision = decided.get();
        if (decision instanceof RestartDecision.Restart restart) {
            Instant at = now.plus(restart.backoff());
            Instant end = status.finishedAt() != null ? status.finishedAt() : now;
            Instant began = status.attempts().stream().filter(a -> a.number() == state.number()).findFirst()
                    .map(Attempt::startedAt).orElse(null);
            Attempt ended = Attempt.begun(state.number(), began).ended(end, status.reason(), status.message());
            Instant created = PodFields.instant(job.trainerJob().getMetadata().getCreationTimestamp());
            return Optional.of(new JobLifecycle.Restart(state.next(ended, created, at, restart.message())));
        }
        if (state.number() == 0) {
            return Optional.empty();
        }
        return Optional.of(new JobLifecycle.Fail(status.reason(), ((RestartDecision.Fail) decision).message()));
    }

    /**
     * The status as the job shows it between its attempt's failure and the reconciler acting on it: already
     * {@code Restarting}, or failed saying the restarts are spent, never a {@code Failed} that is taken back.
     */
    public static JobStatus shown(JobPlan plan, ObservedJob job, JobStatus status, Instant now, RestartBackoff backoff) {
        Optional<JobLifecycle.Action> next = after(plan, job, status, now, backoff);
        if (next.isEmpty()) {
            return status;
        }
        if (next.get() instanceof JobLifecycle.Restart restart) {
            AttemptState state = restart.next();
            return new AttemptLedger(state.number(), state.ended()).restartingShown(status, state.restartMessage());
        }
        JobLifecycle.Fail fail = (JobLifecycle.Fail) next.get();
        return status.with(status.phase(), fail.reason(), fail.message()).withQueuePosition(null);
    }

    /**
     * What ended a failed attempt, from the reasons {@link JobOutcome} gives: a replica's exit when its
     * container ended with a code ({@code ReplicaFailed}); an overrun of {@code max_run_time}, which stops
     * the job and is never retried; a stall; anything else (out of memory, an eviction or preemption, a pod
     * deleted or lost with its node, a pserver that could not be reached) came from outside the program,
     * carrying the failed replica's code where it has one.
     */
    static Ending ending(String reason, String message, ReplicaStatus failed) {
        if (StallWatch.STALLED.equals(reason)) {
            return Ending.stalled(message);
        }
        if (JobOutcome.MAX_RUN_TIME_EXCEEDED.equals(reason)) {
            return Ending.stopped(reason, message);
        }
        if ("ReplicaFailed".equals(reason) && failed != null && failed.exitCode() != null) {
            return Ending.exited(failed.role(), failed.index(), failed.exitCode(), reason, message);
        }
        return failed == null ? Ending.fromOutside(reason, message)
                : Ending.fromOutside(failed.role(), failed.index(), failed.exitCode(), reason, message);
    }

    /** The replica the job's status names as failed: a trainer first, as the status does. */
    private static ReplicaStatus firstFailed(JobStatus status) {
        return status.replicas().stream().filter(r -> r.state() == ReplicaState.FAILED)
                .min(Comparator.comparing(r -> r.role() == Role.TRAINER ? 0 : 1)).orElse(null);
    }

    /**
     * Ends the failed attempt and makes the next one's trainer Job, waiting out its backoff. The delete
     * holds only if the trainer Job is still the one decided on: another replica of the service that
     * restarted the job first, or a cancel that came meanwhile, makes it a no-op, and the next look
     * decides again.
     *
     * @return whether this call restarted the job
     */
    boolean restart(JobPlan plan, ObservedJob job, AttemptState next) {
        JobKey key = new JobKey(job.namespace(), job.name());
        Manifests manifests = manifests(plan, next);
        Job failed = job.trainerJob();
        carryLogs(plan, job, manifests.trainerJob());
        // Between the delete and the create below the job has no trainer Job: reads see the failed one meanwhile.
        cache.standInDuringRestart(failed);
        try {
            var current = client.batch().v1().jobs().inNamespace(key.namespace()).withName(failed.getMetadata().getName())
                    .lockResourceVersion(failed.getMetadata().getResourceVersion());
            ((DeletableWithOptions) current).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
        } catch (KubernetesClientException e) {
            cache.forgetStandIn(key);
            if (e.getCode() == CONFLICT || e.getCode() == NOT_FOUND) {
                return false;
            }
            throw e;
        }
        try {
            // Free the names now rather than when the garbage collector gets to them.
            Workloads workloads = new Workloads(client);
            workloads.deleteOwned(key);
            if (job.gang()) {
                workloads.deletePodGroup(key);
            }
            client.resource(manifests.trainerJob()).create();
        } catch (RuntimeException e) {
            cache.forgetStandIn(key);
            throw e;
        }
        log.info("Job {}: {}", key, next.restartMessage());
        return true;
    }

    /**
     * Reads the end of each replica's log of the failed attempt while its pods are still there (an API request
     * each), and puts them, with those of the attempts before it, on the next attempt's trainer Job. A log that
     * cannot be read is left out; the restart goes on.
     */
    private void carryLogs(JobPlan plan, ObservedJob job, Job next) {
        int attempt = job.attempts().number();
        Map<String, String> ends = new TreeMap<>();
        for (Replica replica : plan.replicas()) {
            ByteArrayOutputStream end = new ByteArrayOutputStream();
            try {
                logs.write(job, replica.role(), replica.index(), EarlierLogs.TAIL_LINES, false, end);
                ends.put(replica.id(), end.toString(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                log.warn("Job {}/{}: the log of {} of attempt {} is not kept: {}", job.namespace(), job.name(),
                        replica.id(), attempt, e.toString());
            }
        }
        Job failed = null;
        try {
            // The cache holds the trainer Job without the ends kept so far.
            failed = client.batch().v1().jobs().inNamespace(job.namespace()).withName(job.trainerJob().getMetadata().getName())
                    .get();
        } catch (KubernetesClientException e) {
            log.warn("Job {}/{}: the logs of the attempts before {} are not kept: {}", job.namespace(), job.name(),
                    attempt, e.toString());
        }
        next.getMetadata().getAnnotations().put(JobLabels.EARLIER_LOGS_ANNOTATION, EarlierLogs.carried(failed, attempt, ends));
    }

    /**
     * What a job cannot be made again without: its namespace's data claim, still usable, and its package.
     *
     * @throws CannotRestartException saying which is gone
     */
    private Manifests manifests(JobPlan plan, AttemptState attempt) {
        DataClaim claim;
        ShippedCode shipped;
        try {
            claim = claims.check(plan.namespace());
            shipped = code.of(plan);
        } catch (ErrorResponseException | IllegalStateException | IllegalArgumentException e) {
            throw new CannotRestartException("could not start attempt %d: %s".formatted(attempt.number(),
                    e instanceof ErrorResponseException problem && problem.getBody().getDetail() != null
                            ? problem.getBody().getDetail() : e.getMessage()));
        }
        return Manifests.forAttempt(plan, settings, claim, shipped, attempt);
    }

    /** A restart that cannot be made: the job fails with this message instead. */
    static final class CannotRestartException extends RuntimeException {

        CannotRestartException(String message) {
            super(message);
        }
    }

    /**
     * The backoff has passed: creates the attempt's Service and pserver Job (if any), then marks the
     * attempt started, releasing the trainers of a job without pservers. Repeating it changes nothing.
     *
     * @throws ForeignObjectException while an object of the earlier attempt still holds a name (try again)
     */
    void startAttempt(JobPlan plan, ObservedJob job) {
        JobKey key = new JobKey(job.namespace(), job.name());
        Manifests manifests = manifests(plan, job.attempts());
        creator.createOwnedBy(job.trainerJob(), manifests.owned());
        // Under Kueue the trainers are Kueue's to release; with pservers, the reconciler releases them once they are
        // ready, except in a Volcano gang, whose pservers are placed only with the trainers.
        boolean releaseNow = job.gang() || plan.pservers().count() == 0 && !job.queued();
        String release = releaseNow ? ",\"spec\":{\"suspend\":false}" : "";
        client.batch().v1().jobs().inNamespace(key.namespace()).withName(job.trainerJob().getMetadata().getName())
                .patch(MERGE, "{\"metadata\":{\"annotations\":{\"" + JobLabels.RESTART_AT_ANNOTATION + "\":null,\""
                        + JobLabels.RESTART_MESSAGE_ANNOTATION + "\":null}}" + release + "}");
        log.info("Job {}: started attempt {}", key, job.attempts().number());
    }
}

package io.paddlejobs.backend.kubernetes.manifest;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.LabelKeys;
import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one label set a job's objects are created with and selected by. The user's labels go on
 * every object too, but ours are applied last: a user label cannot move a pod out of its job.
 */
public final class JobLabels {

    public static final String MANAGED_BY = LabelKeys.MANAGED_BY;
    public static final String MANAGER = "paddle-jobs";
    public static final String NAME = LabelKeys.NAME;
    public static final String ROLE = LabelKeys.ROLE;

    /** The request the job was planned from (JSON), on the trainer Job: the plan is recovered from it. */
    public static final String SPEC_ANNOTATION = LabelKeys.PREFIX + "/spec";
    /** When the job was cancelled (ISO-8601); its presence is what makes a job {@code Cancelled}. */
    public static final String CANCELLED_AT_ANNOTATION = LabelKeys.PREFIX + "/cancelled-at";

    /**
     * Why a job was cancelled, where the service cancelled it for a reason of its own (a sweep's trial stopped
     * early: {@code EarlyStopped}); absent for a cancel on request.
     */
    public static final String CANCELLED_REASON_ANNOTATION = LabelKeys.PREFIX + "/cancelled-reason";
    /** That cancel in words. */
    public static final String CANCELLED_MESSAGE_ANNOTATION = LabelKeys.PREFIX + "/cancelled-message";

    /** When the service failed the job itself (ISO-8601): a pserver failed, or it was pending too long. */
    public static final String FAILED_AT_ANNOTATION = LabelKeys.PREFIX + "/failed-at";
    /** The one-word reason of such a failure. */
    public static final String FAILED_REASON_ANNOTATION = LabelKeys.PREFIX + "/failed-reason";
    /** The failure in words. */
    public static final String FAILED_MESSAGE_ANNOTATION = LabelKeys.PREFIX + "/failed-message";

    /**
     * Which attempt of the job an object belongs to: 0 for the first run, then the restart it is. A label on
     * the pods of a restarted job (and an annotation on its Jobs), so that a pod of an earlier attempt, still
     * terminating, is never read as one of the current attempt's; absent means 0.
     */
    public static final String ATTEMPT = LabelKeys.PREFIX + "/attempt";
    /** On the trainer Job of a restarted job: the attempts that ended before this one (JSON). */
    public static final String ATTEMPTS_ANNOTATION = LabelKeys.PREFIX + "/attempts";
    /**
     * On the trainer Job of a restarted job: the end of each replica's log of each earlier attempt (JSON), read
     * before that attempt's pods were deleted; the informer cache drops it (a GET reads it).
     */
    public static final String EARLIER_LOGS_ANNOTATION = LabelKeys.PREFIX + "/earlier-logs";
    /** On the trainer Job of a restarted job: when the job was first created, before any restart (ISO-8601). */
    public static final String CREATED_AT_ANNOTATION = LabelKeys.PREFIX + "/created-at";
    /** While a restarted job waits out its backoff: when its attempt's replicas are started (ISO-8601). */
    public static final String RESTART_AT_ANNOTATION = LabelKeys.PREFIX + "/restart-at";
    /** While a restarted job waits out its backoff: what failed, and when the next attempt starts, in words. */
    public static final String RESTART_MESSAGE_ANNOTATION = LabelKeys.PREFIX + "/restart-message";

    /** Set by Kubernetes on every pod of an Indexed Job. */
    public static final String COMPLETION_INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";

    private JobLabels() {
    }

    /** Everything this service manages, in any namespace: what the informers watch. */
    /**
     * The annotations that record a cancel (on its trainer Job or its JobSet): when, and, for a cancel with a reason
     * of its own, why.
     *
     * @param reason {@code null} for a cancel on request
     */
    public static Map<String, String> cancellation(Instant at, String reason, String message) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(CANCELLED_AT_ANNOTATION, at.toString());
        if (reason != null) {
            annotations.put(CANCELLED_REASON_ANNOTATION, reason);
            annotations.put(CANCELLED_MESSAGE_ANNOTATION, message == null ? "" : message);
        }
        return annotations;
    }

    /** The annotations that record why the service failed a job (on its trainer Job or its JobSet). */
    public static Map<String, String> failure(Instant at, String reason, String message) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(FAILED_AT_ANNOTATION, at.toString());
        annotations.put(FAILED_REASON_ANNOTATION, reason == null ? "Failed" : reason);
        annotations.put(FAILED_MESSAGE_ANNOTATION, message == null ? "" : message);
        return annotations;
    }

    public static Map<String, String> managed() {
        return Map.of(MANAGED_BY, MANAGER);
    }

    /** Every object and pod of one job. */
    public static Map<String, String> selector(String job) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, MANAGER);
        labels.put(NAME, job);
        return labels;
    }

    /** The pods (and workload) of one role of one job. */
    public static Map<String, String> selector(String job, Role role) {
        Map<String, String> labels = selector(job);
        labels.put(ROLE, role.label());
        return labels;
    }

    /** The labels of the job's objects that belong to no single role (the Service). */
    public static Map<String, String> of(JobPlan plan) {
        return withUserLabels(plan, selector(plan.name()));
    }

    /** The labels of a role's workload and pods. */
    public static Map<String, String> of(JobPlan plan, Role role) {
        return withUserLabels(plan, selector(plan.name(), role));
    }

    private static Map<String, String> withUserLabels(JobPlan plan, Map<String, String> ours) {
        Map<String, String> labels = new LinkedHashMap<>(plan.spec().placement().labels());
        labels.putAll(ours);
        return labels;
    }
}

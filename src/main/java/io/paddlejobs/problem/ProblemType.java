package io.paddlejobs.problem;

import java.net.URI;
import java.util.Locale;

/**
 * Every problem type this service answers with: the {@code type} of its problem documents
 * (RFC 9457), {@code urn:paddlejobs:problem:} and the constant's name in lower case with hyphens.
 * Clients branch on these, so each is stated once, here, and listed for users in docs/api.md
 * (a test keeps the two the same). Problems Spring answers by itself (405, 406, 415) keep
 * {@code about:blank}.
 */
public enum ProblemType {
    // the request
    INVALID_REQUEST,
    UNREADABLE_BODY,
    BODY_TOO_LARGE,
    BODY_TOO_SLOW,
    BODIES_IN_PROGRESS,
    INVALID_CONTINUE,
    // who may ask
    UNAUTHENTICATED,
    FORBIDDEN,
    NAMESPACE_FORBIDDEN,
    NAMESPACE_REQUIRED,
    HOST_NOT_ALLOWED,
    CROSS_SITE_REQUEST,
    REQUEST_REJECTED,
    SUBMISSION_RATE_LIMIT,
    // jobs
    JOB_NOT_FOUND,
    REPLICA_NOT_FOUND,
    CONFLICT,
    GPUS_IN_USE_LIMIT,
    UNFINISHED_JOBS_LIMIT,
    NO_CAPACITY,
    TOO_MANY_STREAMS,
    TOO_MANY_LOG_STREAMS,
    WEBHOOK_NOT_ALLOWED,
    STACKS_UNAVAILABLE,
    STACKS_NOT_SUPPORTED,
    // sweeps
    SWEEP_NOT_FOUND,
    // code packages
    PACKAGE_NOT_FOUND,
    PACKAGE_TOO_LARGE,
    INVALID_PACKAGE,
    PACKAGE_IN_USE,
    PACKAGE_QUOTA,
    TOO_MANY_UPLOADS,
    UPLOAD_TOO_SLOW,
    INSUFFICIENT_STORAGE,
    DATA_DIRECTORY_UNWRITABLE,
    // where jobs run
    CLUSTER_REFUSED,
    CLUSTER_UNAVAILABLE,
    HISTORY_UNAVAILABLE,
    NAMESPACE_NOT_SERVED,
    DATA_CLAIM_UNUSABLE,
    JOB_FILES_UNUSABLE,
    QUOTA_EXCEEDED,
    SLURM_REFUSED;

    public static final String PREFIX = "urn:paddlejobs:problem:";

    private final URI uri = URI.create(PREFIX + name().toLowerCase(Locale.ROOT).replace('_', '-'));

    /** The problem document's {@code type}. */
    public URI uri() {
        return uri;
    }
}

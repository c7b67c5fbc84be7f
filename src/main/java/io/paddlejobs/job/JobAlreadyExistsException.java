package io.paddlejobs.job;

/**
 * Thrown by a backend whose create met an existing job of the same key; the service decides
 * whether that is an idempotent retry or a conflict.
 */
public class JobAlreadyExistsException extends RuntimeException {

    private final JobKey key;

    public JobAlreadyExistsException(JobKey key) {
        super("job " + key + " already exists");
        this.key = key;
    }

    public JobKey key() {
        return key;
    }
}

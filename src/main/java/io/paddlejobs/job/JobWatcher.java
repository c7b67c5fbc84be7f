package io.paddlejobs.job;


/** Told by the {@link JobFeed} of a job's changes, on the feed's pool, one call at a time. */
public interface JobWatcher {

    /** @param job as it is now; null when it was deleted */
    void changed(JobKey key, Job job);

    /** Once a second: for what is read rather than pushed (metrics), and keep-alives. */
    default void everySecond() {
    }

    /** The service stops. */
    void closed();

    /**
     * One of its calls has taken longer than a send may (its client stopped reading): it is
     * dropped. Called on the feed's thread while that call still blocks, so it must not write.
     */
    default void abandoned() {
        closed();
    }
}

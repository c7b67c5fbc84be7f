package io.paddlejobs.backend;

import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The listeners of one backend's changes ({@link JobBackend#onChange}): each change is told to
 * every listener, on the thread that made it, once the backend shows it; a new listener is first
 * told the jobs there are.
 */
public final class JobChanges implements Consumer<JobKey> {

    private final List<Consumer<JobKey>> listeners = new CopyOnWriteArrayList<>();

    /** @param existing the keys of the backend's jobs now */
    public void add(Consumer<JobKey> listener, Collection<JobKey> existing) {
        listeners.add(listener); // first: a change made meanwhile is told, if twice
        List.copyOf(existing).forEach(listener);
    }

    /** Tells every listener that the job may have changed. */
    @Override
    public void accept(JobKey key) {
        listeners.forEach(listener -> listener.accept(key));
    }
}

package io.paddlejobs.backend.local;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** A backend that passes everything on to a real one, and keeps the jobs whose logs were followed. */
final class FollowedLogs implements JobBackend {

    final Set<JobKey> followed = ConcurrentHashMap.newKeySet();
    private final JobBackend backend;

    FollowedLogs(JobBackend backend) {
        this.backend = backend;
    }

    @Override
    public boolean writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out)
            throws IOException {
        if (follow) {
            followed.add(key);
        }
        return backend.writeLogs(key, role, index, tail, follow, out);
    }

    @Override
    public Site site() {
        return backend.site();
    }

    @Override
    public Job submit(JobPlan plan) {
        return backend.submit(plan);
    }

    @Override
    public Optional<Job> find(JobKey key) {
        return backend.find(key);
    }

    @Override
    public List<Job> list(String namespace) {
        return backend.list(namespace);
    }

    @Override
    public void onChange(Consumer<JobKey> listener) {
        backend.onChange(listener);
    }

    @Override
    public Optional<Job> cancel(JobKey key) {
        return backend.cancel(key);
    }

    @Override
    public boolean delete(JobKey key) {
        return backend.delete(key);
    }
}

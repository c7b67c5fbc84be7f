package io.paddlejobs.history;

import io.paddlejobs.backend.JobChanges;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobAlreadyExistsException;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A backend that runs nothing and can hold a reader between its read and what it does with it: the
 * window in which a job is deleted while the history's recorder still holds what it read of it. Its one
 * trainer prints {@link #LOG} once the job finished, as a cluster serves a pod's log for a while after
 * the job went.
 */
final class HeldJobBackend implements JobBackend {

    static final String LOG = "AWS_SECRET=leaked\nloss 0.1\n";
    private static final Duration HOLD_LIMIT = Duration.ofSeconds(60);

    private final Map<JobKey, Job> jobs = new ConcurrentHashMap<>();
    private final JobChanges changes = new JobChanges();
    private final AtomicReference<Hold> nextFind = new AtomicReference<>();
    private volatile String log = LOG;

    /** A reader of the backend stopped after its read until the test lets it go on. */
    static final class Hold {
        private final CountDownLatch read = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        /** Waits until the reader has read, and waits. */
        void awaitRead() throws InterruptedException {
            if (!read.await(HOLD_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("nothing read the backend within " + HOLD_LIMIT);
            }
        }

        void release() {
            released.countDown();
        }

        private void hold() {
            read.countDown();
            try {
                released.await(HOLD_LIMIT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The next {@link #find} returns what it read only once the test releases it. */
    Hold holdNextFind() {
        Hold hold = new Hold();
        nextFind.set(hold);
        return hold;
    }

    /** What every trainer's log holds from now on. */
    void printing(String text) {
        this.log = text;
    }

    /** The job ends: its trainer exited 0 and its log is there to read. */
    void finish(JobKey key) {
        jobs.computeIfPresent(key, (k, job) -> new Job(job.plan(),
                status(JobPhase.SUCCEEDED, ReplicaState.SUCCEEDED, job.status().createdAt())));
        changes.accept(key);
    }

    @Override
    public Optional<Job> find(JobKey key) {
        Optional<Job> found = Optional.ofNullable(jobs.get(key));
        Hold hold = nextFind.getAndSet(null);
        if (hold != null) {
            hold.hold();
        }
        return found;
    }

    @Override
    public Job submit(JobPlan plan) {
        Job job = new Job(plan, status(JobPhase.RUNNING, ReplicaState.RUNNING, Instant.now()));
        if (jobs.putIfAbsent(job.key(), job) != null) {
            throw new JobAlreadyExistsException(job.key());
        }
        changes.accept(job.key());
        return job;
    }

    @Override
    public boolean delete(JobKey key) {
        boolean had = jobs.remove(key) != null;
        changes.accept(key);
        return had;
    }

    @Override
    public boolean writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out)
            throws java.io.IOException {
        out.write(log.getBytes(StandardCharsets.UTF_8));
        return true;
    }

    @Override
    public List<Job> list(String namespace) {
        return jobs.values().stream().filter(job -> job.key().namespace().equals(namespace)).toList();
    }

    @Override
    public void onChange(Consumer<JobKey> listener) {
        changes.add(listener, jobs.keySet());
    }

    @Override
    public Optional<Job> cancel(JobKey key) {
        return find(key);
    }

    @Override
    public Site site() {
        return HistoryStores.LOOPBACK;
    }

    private static JobStatus status(JobPhase phase, ReplicaState trainer, Instant createdAt) {
        Instant now = Instant.now();
        RoleCounts none = new RoleCounts(0, 0, 0, 0, 0);
        RoleCounts one = new RoleCounts(1, 0, trainer == ReplicaState.RUNNING ? 1 : 0,
                trainer == ReplicaState.SUCCEEDED ? 1 : 0, 0);
        ReplicaStatus replica = new ReplicaStatus("trainer-0", Role.TRAINER, 0, "127.0.0.1", trainer, 0,
                trainer == ReplicaState.SUCCEEDED ? 0 : null, null, now, phase.isFinished() ? now : null);
        return new JobStatus(phase, phase.isFinished() ? "Completed" : null, null, createdAt, createdAt,
                phase.isFinished() ? now : null, null, none, one, List.of(replica));
    }
}

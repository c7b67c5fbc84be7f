package io.paddlejobs.job;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the service keeps of every job after its backend forgot it (a Kubernetes TTL, Slurm's
 * {@code MinJobAge}, a delete on the backend alone): its plan, its status transitions, its last
 * status, each replica's log and its metrics. Each write is on disk when the call returns, so a
 * submit the service answered survives a kill; status changes are written as the backend tells of
 * them, just after (see docs/operations/history.md, "What a kill loses").
 * A store that cannot be reached throws {@link HistoryUnavailableException}.
 */
public interface JobHistory {

    /**
     * A job about to be submitted: written before the backend starts anything of it. Whatever was
     * kept of an earlier job of the same name goes.
     */
    void submitted(JobPlan plan);

    /**
     * The job as it stands now: a new transition when its phase, reason or message changed since the
     * last one recorded (a job the history did not know yet is added).
     */
    void record(Job job);

    /** One replica's log (its end, where it is longer than the store keeps), served once the backend forgot the job. */
    void keepLog(JobKey key, Role role, int index, String log);

    /** The job as last recorded, its status marked archived. */
    Optional<Job> find(JobKey key);

    /**
     * The recorded jobs of the query's namespace created before {@code below} (any time when null), in
     * the list's order, each marked archived, as far as the query's phase and time range pick them
     * (its labels are for the caller to check). At least {@code count} of them unless fewer are left,
     * and every job of the last creation time returned, so that the next batch starts at
     * {@link Batch#next()}: a list pages through the history without reading all of it.
     */
    Batch listed(JobQuery query, Instant below, int count);

    /** @param next where the next batch starts ({@code below}); null when there are no more */
    record Batch(List<Job> jobs, Instant next) {
        public static final Batch NONE = new Batch(List.of(), null);
    }

    /** The kept log of one replica, if any was kept. */
    Optional<String> keptLog(JobKey key, Role role, int index);

    /**
     * The kept end of one replica's log of an earlier attempt (below the one the job finished on), if it
     * was kept: where the backend kept it apart when the job finished ({@link JobBackend#keepsEarlierAttemptLogs}).
     */
    default Optional<String> keptEarlierLog(JobKey key, Role role, int index, int attempt) {
        return Optional.empty();
    }

    /**
     * Removes everything kept of the job; nothing of it is written afterwards, even by a recorder that
     * read the job from the backend before the delete (only a new submit of the name writes again).
     * @return whether anything was kept
     */
    boolean delete(JobKey key);

    /** Keeps nothing: for a service built without a store (tests of the job service alone). */
    JobHistory NONE = new KeepsNothing();

    /** A history that keeps nothing; a test's history overrides only the calls it watches. */
    class KeepsNothing implements JobHistory {
        @Override
        public void submitted(JobPlan plan) {
        }

        @Override
        public void record(Job job) {
        }

        @Override
        public void keepLog(JobKey key, Role role, int index, String log) {
        }

        @Override
        public Optional<Job> find(JobKey key) {
            return Optional.empty();
        }

        @Override
        public Batch listed(JobQuery query, Instant below, int count) {
            return Batch.NONE;
        }

        @Override
        public Optional<String> keptLog(JobKey key, Role role, int index) {
            return Optional.empty();
        }

        @Override
        public boolean delete(JobKey key) {
            return false;
        }
    }
}

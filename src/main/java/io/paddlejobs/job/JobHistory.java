package io.paddlejobs.job;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import java.util.List;
import java.util.Optional;

/**
 * What the service keeps of every job after its backend forgot it (a Kubernetes TTL, Slurm's
 * {@code MinJobAge}, a delete on the backend alone): its plan, its status transitions, its last
 * status and the last lines of each replica's log. Each write is on disk when the call returns,
 * so what the service acknowledged (a submit's answer, a status told to a stream) survives a kill.
 * A store that cannot be reached throws {@link HistoryUnavailableException}.
 */
public interface JobHistory {

    /** A job about to be submitted: written before the backend starts anything of it. */
    void submitted(JobPlan plan);

    /**
     * The job as it stands now: a new transition when its phase, reason or message changed since the
     * last one recorded (a job the history did not know yet is added).
     */
    void record(Job job);

    /** The last lines of one replica's log, kept to be served once the backend forgot the job. */
    void keepLogTail(JobKey key, Role role, int index, String lines);

    /** The job as last recorded, its status marked archived. */
    Optional<Job> find(JobKey key);

    /** The namespace's recorded jobs, in no particular order, each marked archived. */
    List<Job> list(String namespace);

    /** The kept tail of one replica's log, if any was kept. */
    Optional<String> logTail(JobKey key, Role role, int index);

    /** Removes everything kept of the job. @return whether anything was kept */
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
        public void keepLogTail(JobKey key, Role role, int index, String lines) {
        }

        @Override
        public Optional<Job> find(JobKey key) {
            return Optional.empty();
        }

        @Override
        public List<Job> list(String namespace) {
            return List.of();
        }

        @Override
        public Optional<String> logTail(JobKey key, Role role, int index) {
            return Optional.empty();
        }

        @Override
        public boolean delete(JobKey key) {
            return false;
        }
    }
}

package io.paddlejobs.job;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Role;
import io.paddlejobs.planning.Site;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs planned jobs somewhere and reports how they stand, in terms that do not depend on where.
 *
 * <p>A job moves {@code Pending -> Running -> Succeeded | Failed}, or to {@code Cancelled} from
 * either of the first two; the last three are final. A backend must:
 * <ul>
 *   <li>inject each replica's planned environment exactly, and run its role's entry point;</li>
 *   <li>mark the job {@code Succeeded} when every trainer exited 0, and then stop the pservers;</li>
 *   <li>mark it {@code Failed} when any replica fails, with a reason naming the replica, and stop the rest;</li>
 *   <li>answer {@link #find} and {@link #list} from memory or caches: they are called per request.</li>
 * </ul>
 * All methods are safe to call from many threads at once.
 */
public interface JobBackend {

    /**
     * The metrics reader saw trainer {@code replica} of the job report a step above any it reported before.
     * A backend that judges stalls takes it as the sign of progress of a job that reports steps: once a
     * trainer has reported one in its attempt, lines without a new step no longer count as life.
     */
    default void newStepReported(JobKey key, String replica, java.time.Instant at) {
    }

    /** Whether replicas start in their job's unpacked code package ({@code package}); a backend that cannot refuses such jobs. */
    default boolean shipsCodePackages() {
        return false;
    }

    /** Why it does not ship them, and what would change that, in words for the user (a 400's detail). */
    default String whyNoCodePackages() {
        return "This service's backend does not ship code packages yet; build the code into the image and leave package out.";
    }

    /** How this backend names replica hosts and the user's data; the planner writes them into the environment. */
    Site site();

    /**
     * Creates and starts (or queues) a planned job. Creating is atomic per {@link JobKey}: of two
     * concurrent submits of one key, one wins and the other gets {@link JobAlreadyExistsException}.
     * A failed submit leaves nothing behind.
     *
     * @return the job as recorded right after; its plan may differ from the one given where the
     *         backend places replicas itself (the local backend allocates the port)
     */
    Job submit(JobPlan plan);

    Optional<Job> find(JobKey key);

    /**
     * After a submit met {@link JobAlreadyExistsException}: waits, within a bound, until {@link #find} shows the
     * job that holds the key, where a job another replica of the service created a moment ago may take a
     * while to be seen. Called outside every lock of the service's; a backend that sees its jobs at once
     * returns at once.
     */
    default void awaitFound(JobKey key) {
    }

    /** The namespace's jobs, in no particular order: the service sorts them ({@link ListPosition#ORDER}). */
    List<Job> list(String namespace);

    /**
     * Asks to be told the key of every job there is now, then of every job that may have changed
     * (also when nothing did), on the backend's own threads: {@code listener} must return at once.
     * Every change {@link #find} can show is told, a submit, a phase, a cancel and a delete among
     * them, once {@link #find} shows it: watchers and metrics learn of jobs from here alone (also
     * of jobs read back at start-up), and nobody polls a backend.
     */
    void onChange(Consumer<JobKey> listener);

    /** Stops every replica; the job is kept as {@code Cancelled}. A finished job is returned as it is. */
    Optional<Job> cancel(JobKey key);

    /**
     * Cancels as {@link #cancel(JobKey)} does, the job kept as {@code Cancelled} with this reason and message
     * instead of a cancel's own (a sweep's trial stopped early: {@code EarlyStopped}). A backend that keeps no
     * reason of its own for a cancel cancels as a cancel does.
     */
    default Optional<Job> cancel(JobKey key, String reason, String message) {
        return cancel(key);
    }

    /** Stops the job and removes it and everything it created. @return whether there was such a job */
    boolean delete(JobKey key);

    /**
     * Writes one replica's log to {@code out}: the last {@code tail} lines (all if {@code null}),
     * then, with {@code follow}, what it writes until it ends.
     *
     * @return false when the job has no such replica
     */
    boolean writeLogs(JobKey key, Role role, int index, Integer tail, boolean follow, OutputStream out)
            throws IOException;

    /**
     * Whether this backend keeps the logs of a job's earlier attempts apart from its current one's
     * ({@link #writeEarlierLog}: local and Slurm whole, Kubernetes their ends); where it does not, a restart
     * begins each replica's log anew (JobSet: new pods).
     */
    default boolean keepsEarlierAttemptLogs() {
        return false;
    }

    /**
     * Writes one replica's log of an earlier attempt of the job (below its current one): the last
     * {@code tail} lines, or all of it; nothing where that replica wrote nothing then.
     *
     * @return false when the job has no such replica, or this backend keeps no earlier logs
     */
    default boolean writeEarlierLog(JobKey key, Role role, int index, int attempt, Integer tail, OutputStream out)
            throws IOException {
        return false;
    }

    /**
     * Takes the Python stacks of the job's running trainers now, and keeps them with the job ({@link #stacks}).
     *
     * @param trigger why ({@link StackDump#REQUESTED})
     * @return empty when the job is not here
     * @throws JobConflictException        when none of its trainers runs (it ended, or has not started)
     * @throws StacksUnavailableException  where this backend takes no stacks, or cannot now
     */
    default Optional<StackDump> takeStacks(JobKey key, String trigger) {
        throw StacksUnavailableException.notSupported(whyNoStacks());
    }

    /** Why this backend takes no stacks, and what a user can do instead, in words for a problem's detail. */
    default String whyNoStacks() {
        return "This service's backend does not take stack dumps yet; run py-spy dump --pid PID where the replica runs.";
    }

    /** The stack dumps kept of the job, newest first; none where this backend takes none. */
    default List<StackDump> stacks(JobKey key) {
        return List.of();
    }

    /**
     * Whether this backend holds a failed attempt for the request's {@code debug_hold} ({@link #exec}); where it does
     * not, a request with {@code debug_hold} is refused at submit.
     */
    default boolean holdsFailedAttempts() {
        return false;
    }

    /**
     * Starts {@code command} in one replica of a held job ({@link JobStatus#HELD}), as that replica ran: its
     * environment, working directory, user and sandbox. The command is stopped when the hold ends.
     *
     * @return empty when the job is not here
     * @throws JobConflictException when the job is not held (any more)
     */
    default Optional<ExecProcess> exec(JobKey key, Role role, int index, List<String> command) {
        throw JobConflictException.notHeld(key);
    }

    /**
     * Refuses, at submit and in a dry run, a job that could never run here (more GPUs or memory
     * than the machine has), with violations that say what the machine has. Backends in front of a
     * cluster's own scheduler accept every plan: the cluster decides.
     *
     * @throws io.paddlejobs.planning.InvalidJobRequestException naming the fields and what the machine has
     */
    default void requireFits(JobPlan plan) {
    }

    /**
     * What the user should know of how this backend runs the plan (a field it does not use), added
     * to the plan's warnings at submit and in a dry run.
     */
    default List<String> warnings(JobPlan plan) {
        return List.of();
    }

    /** What this backend may hand out and who holds it, where it schedules on its own machine (local). */
    default Optional<Capacity> capacity() {
        return Optional.empty();
    }

    /**
     * Admission against a namespace's quota that holds across several replicas of the service, where they share
     * this backend's store; empty where each replica counts the jobs it has seen ({@link SharedUsage}).
     */
    default Optional<SharedUsage> sharedUsage() {
        return Optional.empty();
    }

    /**
     * The plan as a dry run shows it: where a start sets a variable the planner cannot know (the local
     * backend's GPU devices), it shows what the start will do instead of the request's value. The plan unchanged by default.
     */
    default JobPlan asDryRun(JobPlan plan) {
        return plan;
    }

    /** The objects a submit would create, for a dry run; backends that create none return an empty list. */
    default List<Map<String, Object>> manifests(JobPlan plan) {
        return List.of();
    }

    /**
     * The objects a submit would create, worked out from this service's settings alone, without a read of
     * the cluster (one may be away, or not yet there), and in words what that leaves unchecked. Backends that
     * ask nobody for a dry run answer as {@link #manifests} does, with nothing unchecked.
     */
    default OfflineManifests offlineManifests(JobPlan plan) {
        return new OfflineManifests(manifests(plan), List.of());
    }

    /** An offline dry run's objects, and what a submit would check that it could not. */
    record OfflineManifests(List<Map<String, Object>> manifests, List<String> unchecked) {

        public OfflineManifests {
            manifests = List.copyOf(manifests);
            unchecked = List.copyOf(unchecked);
        }
    }
}

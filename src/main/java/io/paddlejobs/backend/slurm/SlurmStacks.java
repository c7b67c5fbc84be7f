package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.PySpy;
import io.paddlejobs.backend.StackProperties;
import io.paddlejobs.backend.slurm.client.OverlapSteps;
import io.paddlejobs.backend.slurm.client.SlurmException;
import io.paddlejobs.backend.slurm.script.BatchScripts;
import io.paddlejobs.backend.slurm.script.JobFiles;
import io.paddlejobs.backend.slurm.script.Placement;
import io.paddlejobs.backend.slurm.state.SlurmJob;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.job.JobConflictException;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.job.ReplicaStatus;
import io.paddlejobs.job.StackDump;
import io.paddlejobs.job.StacksUnavailableException;
import io.paddlejobs.planning.Role;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stack dumps of Slurm jobs: for each running trainer, a step of the job's own on the trainer's node
 * ({@link OverlapSteps}, {@code srun --overlap}) lists the Python processes below the process its launcher started
 * (which {@code launch.sh} writes in the attempt's state directory), and one step per process runs py-spy
 * ({@code paddlejobs.slurm.py-spy}) on it, parsed and kept as the local backend's are ({@link PySpy}; in the job's
 * directory). py-spy must be installed on the nodes; the service needs the Slurm commands ({@code client=cli}).
 */
final class SlurmStacks implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SlurmStacks.class);
    /**
     * Run in the step, with the root's pid as {@code $1}: one line per Python process below it (the root included),
     * {@code <pid> <pid in its innermost PID namespace> <command line>}; at most 256 processes are looked at.
     */
    private static final String LIST_PYTHON = """
            todo=("$1"); seen=0
            while [ ${#todo[@]} -gt 0 ] && [ "$seen" -lt 256 ]; do
                p=${todo[0]}; todo=("${todo[@]:1}"); seen=$((seen + 1))
                exe=$(readlink "/proc/$p/exe" 2>/dev/null)
                case ${exe##*/} in python*)
                    ns=$(sed -n 's/^NSpid:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
                    printf '%s %s %s\\n' "$p" "${ns##*[[:space:]]}" "$(tr '\\0' ' ' < "/proc/$p/cmdline" 2>/dev/null)" ;;
                esac
                kids=(); { read -ra kids < "/proc/$p/task/$p/children"; } 2>/dev/null; todo+=("${kids[@]}")
            done
            """;
    private static final Pattern PROCESS = Pattern.compile("(\\d{1,10}) (\\d{0,10}) ?(.*)");

    private final SlurmProperties properties;
    private final SlurmRecords records;
    private final Clock clock;
    private final OverlapSteps steps;
    /** Dumps at a stall, off the poller's thread: py-spy through srun takes a while, and the poller serves every job. */
    private final ExecutorService atStalls = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "slurm-stall-stacks");
        thread.setDaemon(true);
        return thread;
    });
    /** Set once the service's settings are read ({@link #use}). */
    private volatile StackProperties settings = StackProperties.defaults();

    SlurmStacks(SlurmProperties properties, SlurmRecords records, Clock clock) {
        this.properties = properties;
        this.records = records;
        this.clock = clock;
        this.steps = new OverlapSteps(properties.slurmConf(), properties.binDir());
    }

    void use(StackProperties stacks) {
        this.settings = stacks;
    }

    /**
     * Dumps every running trainer of the job's current attempt now, and keeps the dump.
     *
     * @param job the job as it stands (at a stall: as it stood before the stall ended its attempt)
     * @throws JobConflictException        when none of its trainers runs
     * @throws StacksUnavailableException  where the service talks to Slurm through slurmrestd
     */
    StackDump take(SlurmJob job, String trigger) {
        if (properties.client() == SlurmProperties.ClientKind.REST) {
            throw StacksUnavailableException.notSupported(whyNot());
        }
        List<ReplicaStatus> running = job.isFinished() || job.restartAt() != null ? List.of()
                : job.status().replicas().stream()
                .filter(r -> r.role() == Role.TRAINER && r.state() == ReplicaState.RUNNING).toList();
        if (running.isEmpty()) {
            throw JobConflictException.noTrainerRunning(job.key(), job.status().phase());
        }
        StackProperties now = settings;
        JobFiles files = records.files(job.key());
        int attempt = job.attempt();
        Placement placement = files.marks(job.plan(), attempt).placement();
        PySpy pySpy = new PySpy(now);
        List<StackDump.ReplicaStacks> replicas = new ArrayList<>();
        for (ReplicaStatus replica : running) {
            Placement.Slot slot = placement == null ? null : placement.slots().get(replica.id());
            replicas.add(dump(job, replica, slot, files.rootPid(replica.id(), attempt), pySpy, now));
        }
        StackDump dump = new StackDump(attempt, clock.instant(), trigger, replicas);
        files.keepStacks(dump, now.keep());
        return dump;
    }

    /** Why there are none where the service talks to Slurm through slurmrestd, and what to do instead. */
    static String whyNot() {
        return "Stacks on Slurm are taken with srun --overlap, which needs the Slurm commands on the service's host "
                + "and the job's own user: with paddlejobs.slurm.client=rest this service has neither. By hand, on a host "
                + "with them: srun --overlap --jobid JOBID -w NODE py-spy dump --pid PID (the replica's node is its "
                + "host in the status).";
    }

    /**
     * As {@link #take}, at a stall, on a thread of its own; {@code then} (the stall's stop, where it ends the attempt)
     * runs after, whatever the dump came to, so that the stacks are of the trainers as they hung.
     */
    void takeForStall(SlurmJob job, Runnable then) {
        try {
            atStalls.execute(() -> {
                try {
                    take(job, StackDump.STALL);
                } catch (RuntimeException e) {
                    log.info("Job {} stalled; its stacks could not be taken: {}", job.key(), e.getMessage());
                } finally {
                    then.run();
                }
            });
        } catch (RejectedExecutionException stopping) {
            then.run();
        }
    }

    private StackDump.ReplicaStacks dump(SlurmJob job, ReplicaStatus replica, Placement.Slot slot, OptionalLong root,
                                         PySpy pySpy, StackProperties now) {
        if (slot == null || root.isEmpty()) {
            return new StackDump.ReplicaStacks(replica.id(), replica.role(), replica.index(), null, null, List.of(),
                    "its launcher has not written where it runs yet");
        }
        List<String> there = steps.on(job.slurmId(), BatchScripts.component(job.plan(), Role.TRAINER), slot.node());
        List<String> list = new ArrayList<>(there);
        list.addAll(List.of("/bin/bash", "-c", LIST_PYTHON, "list-python", Long.toString(root.getAsLong())));
        List<Program> programs;
        try {
            programs = programs(steps.run(list, now.timeout()));
        } catch (SlurmException e) {
            return new StackDump.ReplicaStacks(replica.id(), replica.role(), replica.index(), root.getAsLong(), null,
                    List.of(), "its processes on " + slot.node() + " could not be listed: " + e.getBody().getDetail());
        }
        if (programs.isEmpty()) {
            return new StackDump.ReplicaStacks(replica.id(), replica.role(), replica.index(), root.getAsLong(), null,
                    List.of(), "no Python process runs in it now");
        }
        List<String> pySpyThere = new ArrayList<>(there);
        pySpyThere.addAll(List.of("/usr/bin/env", "PATH=" + properties.replicaPath(), properties.pySpy()));
        return new StackDump.ReplicaStacks(replica.id(), replica.role(), replica.index(), root.getAsLong(), null,
                programs.stream().map(p -> pySpy.dump(pySpyThere, p.pid(), p.namespacePid(), p.command())).toList(), null);
    }

    /** @param namespacePid its id in its PID namespace, where that is not the node's own */
    private record Program(long pid, Long namespacePid, String command) {
    }

    private static List<Program> programs(String listed) {
        List<Program> programs = new ArrayList<>();
        for (String line : listed.split("\n")) {
            Matcher m = PROCESS.matcher(line);
            if (m.matches()) {
                long pid = Long.parseLong(m.group(1));
                Long inside = m.group(2).isEmpty() || Long.parseLong(m.group(2)) == pid ? null : Long.valueOf(m.group(2));
                programs.add(new Program(pid, inside, m.group(3).strip()));
            }
        }
        return programs;
    }

    /**
     * Stops a stall's dump in progress (its srun steps are killed) and waits, up to a dump's timeout, until it has
     * ended: it writes under the job's directory, which whatever follows the service's stop may remove.
     */
    @Override
    public void close() {
        atStalls.shutdownNow();
        try {
            if (!atStalls.awaitTermination(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("A stall's stack dump still runs as the service stops");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

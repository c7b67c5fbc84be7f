package io.paddlejobs.backend.local;

import io.paddlejobs.backend.DirectoryHandle;
import io.paddlejobs.backend.KeptStackDumps;
import io.paddlejobs.backend.PySpy;
import io.paddlejobs.backend.StackProperties;
import io.paddlejobs.backend.local.process.ReplicaProcess;
import io.paddlejobs.backend.local.record.JobRecordStore;
import io.paddlejobs.job.JobConflictException;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.StackDump;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.Role;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stack dumps of local jobs: py-spy ({@link PySpy}) on every Python process of each running trainer, from the
 * service's side on the host's process ids (a sandboxed replica cannot be traced from inside, and needs no tool
 * of its own). Each dump is kept in the job's directory, {@code stacks/}, the newest {@code keep} of them; a
 * delete of the job takes them with it.
 */
final class LocalStacks {

    private static final Logger log = LoggerFactory.getLogger(LocalStacks.class);

    private final JobRecordStore store;
    private final Clock clock;
    private final boolean sandboxed;
    /** Set once the service's settings are read ({@link #use}); py-spy on PATH until then. */
    private volatile StackProperties settings = StackProperties.defaults();

    LocalStacks(JobRecordStore store, Clock clock, boolean sandboxed) {
        this.store = store;
        this.clock = clock;
        this.sandboxed = sandboxed;
    }

    void use(StackProperties settings) {
        this.settings = settings;
    }

    /**
     * Dumps every running trainer of the job now, and keeps the dump.
     *
     * @throws JobConflictException when none of its trainers runs
     * @throws io.paddlejobs.job.StacksUnavailableException when py-spy is not there
     */
    StackDump take(LocalJob job, String trigger) {
        StackProperties now = settings;
        PySpy pySpy = new PySpy(now);
        Path program = pySpy.program();
        int attempt = job.attempt();
        Map<Replica, ReplicaProcess> running = job.runningReplicas();
        List<StackDump.ReplicaStacks> replicas = new ArrayList<>();
        running.forEach((replica, process) -> {
            if (replica.role() == Role.TRAINER) {
                replicas.add(dump(pySpy, program, replica, process));
            }
        });
        if (replicas.isEmpty()) {
            throw JobConflictException.noTrainerRunning(job.key(), job.phase());
        }
        StackDump dump = new StackDump(attempt, clock.instant(), trigger, replicas);
        keep(job.key(), dump, now.keep());
        return dump;
    }

    /** As {@link #take}, for a stall: what goes wrong is logged, and the stall's outcome goes on. */
    void takeForStall(LocalJob job) {
        try {
            take(job, StackDump.STALL);
        } catch (RuntimeException e) {
            log.info("Job {} stalled; its stacks could not be taken: {}", job.key(), e.getMessage());
        }
    }

    /** The kept dumps, newest first. */
    List<StackDump> kept(JobKey key) {
        try (DirectoryHandle job = DirectoryHandle.open(store.jobDir(key))) {
            return KeptStackDumps.kept(job);
        } catch (NoSuchFileException none) {
            return List.of();
        } catch (IOException | RuntimeException e) {
            log.warn("The stack dumps of job {} cannot be listed: {}", key, e.getMessage());
            return List.of();
        }
    }

    private StackDump.ReplicaStacks dump(PySpy pySpy, Path program, Replica replica, ReplicaProcess process) {
        Optional<ReplicaProcessTree.Ids> entry = ReplicaProcessTree.entryPoint(process.pid(), sandboxed);
        Long pid = entry.map(ReplicaProcessTree.Ids::pid).orElse(null);
        Long namespacePid = entry.map(ReplicaProcessTree.Ids::namespacePid).orElse(null);
        List<ReplicaProcessTree.Program> programs = ReplicaProcessTree.pythonPrograms(process.pid());
        if (programs.isEmpty()) {
            return new StackDump.ReplicaStacks(replica.id(), replica.role(), replica.index(), pid, namespacePid,
                    List.of(), "no Python process runs in it now");
        }
        return new StackDump.ReplicaStacks(replica.id(), replica.role(), replica.index(), pid, namespacePid,
                programs.stream().map(p -> pySpy.dump(program, p.ids().pid(), p.ids().namespacePid(), p.command()))
                        .toList(), null);
    }

    /** Kept only in the job's directory as it is: a job deleted meanwhile does not get its directory back. */
    private void keep(JobKey key, StackDump dump, int keep) {
        try (DirectoryHandle job = DirectoryHandle.open(store.jobDir(key))) {
            KeptStackDumps.keep(job, dump, keep);
        } catch (IOException | RuntimeException e) {
            log.warn("The stack dump of job {} could not be kept: {}", key, e.getMessage());
        }
    }
}

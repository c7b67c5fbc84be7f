package io.paddlejobs.backend.local;

import io.paddlejobs.backend.DirectoryHandle;
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
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stack dumps of local jobs: py-spy ({@link PySpy}) on every Python process of each running trainer, from the
 * service's side on the host's process ids (a sandboxed replica cannot be traced from inside, and needs no tool
 * of its own). Each dump is kept in the job's directory, {@code stacks/}, the newest {@code keep} of them; a
 * delete of the job takes them with it.
 */
final class LocalStacks {

    private static final Logger log = LoggerFactory.getLogger(LocalStacks.class);
    private static final String DIRECTORY = "stacks";
    private static final JsonMapper JSON = JsonMapper.builder().build();

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
            throw new JobConflictException("No trainer running", "Stacks are taken of running trainers, and no trainer "
                    + "of job '" + job.key().name() + "' runs now (phase " + job.phase().wireName() + ").");
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
        Path dir = store.jobDir(key).resolve(DIRECTORY);
        List<Path> files;
        try (Stream<Path> listed = Files.list(dir)) {
            files = listed.filter(file -> file.getFileName().toString().endsWith(".json"))
                    .sorted(Comparator.comparing((Path file) -> file.getFileName().toString()).reversed()).toList();
        } catch (NoSuchFileException none) {
            return List.of();
        } catch (IOException e) {
            log.warn("The stack dumps of job {} cannot be listed: {}", key, e.getMessage());
            return List.of();
        }
        List<StackDump> dumps = new ArrayList<>();
        for (Path file : files) {
            read(file).ifPresent(dumps::add);
        }
        return dumps;
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

    /**
     * Written whole or not at all (a temporary file moved into place), in time order by name; only into the job's
     * directory as it is: a job deleted meanwhile does not get its directory back.
     */
    private void keep(JobKey key, StackDump dump, int keep) {
        Path dir = store.jobDir(key).resolve(DIRECTORY);
        String name = "%013d-attempt-%d-%s-%s".formatted(dump.takenAt().toEpochMilli(), dump.attempt(), dump.trigger(),
                UUID.randomUUID().toString().substring(0, 8));
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectory(dir);
                Files.setPosixFilePermissions(dir, DirectoryHandle.PRIVATE);
            }
            Path partial = dir.resolve("." + name);
            Files.createFile(partial, PosixFilePermissions.asFileAttribute(DirectoryHandle.PRIVATE_FILE));
            Files.write(partial, JSON.writeValueAsBytes(dump));
            Files.move(partial, dir.resolve(name + ".json"), StandardCopyOption.ATOMIC_MOVE);
            prune(dir, keep);
        } catch (IOException | RuntimeException e) {
            log.warn("The stack dump of job {} could not be kept: {}", key, e.getMessage());
        }
    }

    private static void prune(Path dir, int keep) throws IOException {
        List<Path> oldest;
        try (Stream<Path> listed = Files.list(dir)) {
            List<Path> all = listed.filter(file -> file.getFileName().toString().endsWith(".json"))
                    .sorted(Comparator.comparing((Path file) -> file.getFileName().toString())).toList();
            oldest = all.subList(0, Math.max(0, all.size() - keep));
        }
        for (Path file : oldest) {
            Files.deleteIfExists(file); // another dump's prune may have taken it first
        }
    }

    private static Optional<StackDump> read(Path file) {
        try {
            return Optional.of(JSON.readValue(Files.readAllBytes(file), StackDump.class));
        } catch (NoSuchFileException pruned) {
            return Optional.empty();
        } catch (IOException | JacksonException e) {
            log.warn("Stack dump {} cannot be read: {}", file, e.getMessage());
            return Optional.empty();
        }
    }
}

package io.paddlejobs.backend;

import io.paddlejobs.job.StackDump;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The stack dumps kept of a job: one JSON file each in {@code stacks/} of the job's directory, named by when it was
 * taken so that names sort in time order, the newest {@code keep} of them. Reached through the job's directory held
 * open ({@link DirectoryHandle}), no link followed, and read with a bound ({@link JobWrittenFiles}): on Slurm the
 * job's directory is the job's to change too. A delete of the job's directory takes them with it.
 */
public final class KeptStackDumps {

    private static final String DIRECTORY = "stacks";
    private static final String SUFFIX = ".json";
    /** Far more than a dump of many trainers with deep stacks; a larger file is none the service wrote. */
    private static final int MAX_DUMP_BYTES = 16 * 1024 * 1024;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private KeptStackDumps() {
    }

    /** Writes the dump whole or not at all (a temporary file moved into place), then lets only the newest {@code keep} stay. */
    public static void keep(DirectoryHandle job, StackDump dump, int keep) throws IOException {
        String name = "%013d-attempt-%d-%s-%s".formatted(dump.takenAt().toEpochMilli(), dump.attempt(), dump.trigger(),
                UUID.randomUUID().toString().substring(0, 8));
        try (DirectoryHandle stacks = job.directory(DIRECTORY, DirectoryHandle.PRIVATE)) {
            stacks.write(name + SUFFIX, DirectoryHandle.PRIVATE_FILE, out -> out.write(JSON.writeValueAsBytes(dump)));
            List<String> oldestFirst = dumps(stacks, Comparator.naturalOrder());
            for (String old : oldestFirst.subList(0, Math.max(0, oldestFirst.size() - keep))) {
                stacks.deleteTree(old); // another dump's prune may have taken it first: gone is what was wanted
            }
        }
    }

    /**
     * The kept dumps, newest first; one that cannot be read (pruned meanwhile, or not a dump) is left out.
     *
     * @param job the job's directory, open
     */
    public static List<StackDump> kept(DirectoryHandle job) throws IOException {
        DirectoryHandle opened;
        try {
            opened = job.directory(DIRECTORY);
        } catch (NoSuchFileException none) {
            return List.of();
        }
        List<StackDump> kept = new ArrayList<>();
        try (DirectoryHandle stacks = opened) {
            for (String name : dumps(stacks, Comparator.reverseOrder())) {
                read(stacks, name).ifPresent(kept::add);
            }
        }
        return kept;
    }

    /** The dumps' names in time order ({@code naturalOrder}: oldest first); a write's temporary file starts with a dot. */
    private static List<String> dumps(DirectoryHandle stacks, Comparator<String> order) throws IOException {
        return stacks.names().stream().filter(name -> name.endsWith(SUFFIX) && !name.startsWith("."))
                .sorted(order).toList();
    }

    private static Optional<StackDump> read(DirectoryHandle stacks, String name) {
        try {
            return JobWrittenFiles.read(stacks.path().resolve(name), MAX_DUMP_BYTES).filter(JobWrittenFiles.Content::whole)
                    .map(content -> JSON.readValue(content.text(), StackDump.class));
        } catch (IOException | JacksonException e) {
            return Optional.empty();
        }
    }
}

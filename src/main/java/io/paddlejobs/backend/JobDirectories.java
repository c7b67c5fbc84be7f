package io.paddlejobs.backend;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The layout the local and the Slurm backend share under their root (the local data root, the Slurm
 * shared directory): a directory per job, {@code jobs/<namespace>/<job>/}, holding the service's
 * record {@code job.json}, and a storage directory per namespace, {@code storage/<namespace>/}.
 * What each backend puts beside the record, and what it does with a record it cannot use, is its own.
 *
 * @param jobs    the directory of the job directories
 * @param storage the directory of the namespaces' storage directories
 */
public record JobDirectories(Path jobs, Path storage) {

    /** The service's record in a job's directory. */
    public static final String RECORD = "job.json";

    /** The layout under a backend's root. */
    public static JobDirectories under(Path root) {
        return new JobDirectories(root.resolve("jobs"), root.resolve("storage"));
    }

    public Path jobDir(JobKey key) {
        return jobs.resolve(key.namespace()).resolve(key.name());
    }

    public Path storageDir(String namespace) {
        return storage.resolve(namespace);
    }

    /** Every {@code <namespace>/<job>/job.json} under {@link #jobs()}, without following links; none when it does not exist. */
    public List<Path> records() throws IOException {
        if (!Files.isDirectory(jobs)) {
            return List.of();
        }
        try (Stream<Path> found = Files.find(jobs, 3, (path, attrs) -> path.getFileName().toString().equals(RECORD)
                && jobs.relativize(path).getNameCount() == 3)) {
            return found.toList();
        }
    }

    /** Writes a file. */
    @FunctionalInterface
    public interface Writing {
        void to(Path file) throws IOException;
    }

    /**
     * Replaces {@code file} atomically: written beside it first, then moved over it in one step, so a
     * crash or a full disk never leaves half of one; a failed write leaves the previous file whole and
     * no temporary file behind.
     */
    public static void replace(Path file, Writing write) throws IOException {
        Path temp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        try {
            write.to(temp);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    /**
     * Deletes a directory and everything below it, children first, without following links; what
     * is already gone is what was wanted.
     *
     * @throws IOException when some could not be deleted (the rest were), for the first of them
     */
    public static void deleteTree(Path dir) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        } catch (NoSuchFileException gone) {
            return;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        IOException failed = null;
        for (Path path : paths) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}

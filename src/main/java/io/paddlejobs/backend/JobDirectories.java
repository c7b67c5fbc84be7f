package io.paddlejobs.backend;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The layout the local and the Slurm backend share under their root (the local data root, the Slurm
 * shared directory): a directory per job, {@code jobs/<namespace>/<job>/}, holding the service's
 * record {@code job.json}, and a storage directory per namespace, {@code storage/<namespace>/}.
 * What each backend puts beside the record, and what it does with a record it cannot use, is its own.
 * Jobs can write below both (their own working and storage directories; on Slurm, all of it): what
 * the service makes, writes or deletes there it reaches through a {@link DirectoryHandle}.
 *
 * @param jobs    the directory of the job directories
 * @param storage the directory of the namespaces' storage directories
 */
public record JobDirectories(Path jobs, Path storage) {

    /** The service's record in a job's directory. */
    public static final String RECORD = "job.json";
    /** The names of the two directories under the root. */
    public static final String JOBS = "jobs";
    public static final String STORAGE = "storage";

    /** The layout under a backend's root. */
    public static JobDirectories under(Path root) {
        return new JobDirectories(root.resolve(JOBS), root.resolve(STORAGE));
    }

    /** The root both lie in, as the operator named it. */
    public Path root() {
        return jobs.getParent();
    }

    /**
     * Makes each of these directories under the root the service's user's alone ({@code rwx------}),
     * made where missing, whatever an earlier version left them as: nothing below (a record, a log, a
     * namespace's files) is then readable by another user of the machine. A link in the place of one
     * is refused, not followed.
     */
    public static void keepPrivate(Path root, String... trees) throws IOException {
        Files.createDirectories(root);
        try (DirectoryHandle handle = DirectoryHandle.open(root)) {
            for (String tree : trees) {
                try (DirectoryHandle dir = handle.directory(tree, DirectoryHandle.PRIVATE)) {
                    dir.chmod(DirectoryHandle.PRIVATE);
                }
            }
        }
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
}

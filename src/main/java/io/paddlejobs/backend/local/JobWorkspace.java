package io.paddlejobs.backend.local;

import io.paddlejobs.backend.DirectoryHandle;
import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.backend.local.sandbox.JobUsers;
import io.paddlejobs.job.CodePackages;
import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.LoggerFactory;

/**
 * The directories of a local job, made before each of its attempts, below the data root:
 * <pre>
 * jobs/&lt;ns&gt;/&lt;job&gt;/               the service's: job.json, logs/, code/, work/
 * jobs/&lt;ns&gt;/&lt;job&gt;/code/          the package, unpacked once; replicas read it (read-only when confined)
 * jobs/&lt;ns&gt;/&lt;job&gt;/work/&lt;id&gt;/     a replica's own working directory: a link to each entry of code/
 * storage/&lt;ns&gt;/                  the namespace's storage, PADDLE_JOB_DATA
 * checkpoints/&lt;ns&gt;/&lt;job&gt;/        the job's checkpoints, PADDLE_JOB_CHECKPOINT_DIR, kept after it
 * </pre>
 * Of each, only the last directory is ever the replicas' (handed to the namespace's user, see
 * {@link JobUsers}); every directory above it is the service's, private, and shown to no replica, so
 * no job can put a link where the service would then make, chown or delete through it. Each step is
 * taken through a {@link DirectoryHandle} all the same, and a link where a directory should be stops
 * the start. A replica's working directory is made once and kept across attempts, as the job left it.
 */
public final class JobWorkspace {

    static final String CHECKPOINTS = "checkpoints";
    static final String LOGS = "logs";
    static final String CODE = "code";
    static final String WORK = "work";
    /** How a replica's working directory reaches the package: its links point here. */
    private static final String TO_CODE = "../../" + CODE + "/";

    /**
     * The directories one replica is given.
     *
     * @param work        its own working directory
     * @param code        the job's unpacked package (its working directory links to each entry); null without one
     * @param storage     its namespace's storage
     * @param checkpoints its job's checkpoints
     */
    public record ReplicaDirectories(Path work, Path code, Path storage, Path checkpoints) {
    }

    /**
     * What an attempt's replicas run with.
     *
     * @param user     who they run as; null: the service's user
     * @param replicas by replica id
     */
    record Prepared(JobUsers.JobUser user, Map<String, ReplicaDirectories> replicas) {
    }

    /** The package could not be unpacked: the message is the package's, one sentence for the job's status. */
    static final class UnpackFailedException extends IOException {
        UnpackFailedException(String message) {
            super(message);
        }
    }

    private final Path dataRoot;
    private final JobUsers users;
    private final CodePackages packages;

    JobWorkspace(Path dataRoot, JobUsers users, CodePackages packages) {
        this.dataRoot = dataRoot.toAbsolutePath().normalize();
        this.users = users;
        this.packages = packages;
    }

    /**
     * Makes the data root's three trees the service's alone ({@link JobDirectories#keepPrivate}).
     * Replicas do not need them: a confined one sees only its own directories, mounted where their
     * paths say; an unconfined one runs as the service's user.
     */
    static void keepPrivate(Path dataRoot) {
        try {
            JobDirectories.keepPrivate(dataRoot, JobDirectories.JOBS, JobDirectories.STORAGE, CHECKPOINTS);
        } catch (IOException e) {
            LoggerFactory.getLogger(JobWorkspace.class).warn("Cannot make the job directories under {} private: {}",
                    dataRoot.toAbsolutePath(), e.toString());
        }
    }

    /** Where a job's checkpoints are ({@code PADDLE_JOB_CHECKPOINT_DIR}). */
    static Path checkpointDir(Path dataRoot, String namespace, String job) {
        return dataRoot.toAbsolutePath().normalize().resolve(CHECKPOINTS).resolve(namespace).resolve(job);
    }

    /**
     * Makes what is missing of the job's directories, unpacks its package if that was not done yet,
     * and hands the replicas' own directories to the namespace's user.
     *
     * @param codePackage the job's package, or null
     * @throws UnpackFailedException when the package does not unpack
     * @throws IOException           when a directory cannot be made, or a link or a file is in its place
     */
    Prepared prepare(JobKey key, String codePackage, List<String> replicaIds) throws IOException {
        Files.createDirectories(dataRoot);
        try (DirectoryHandle root = DirectoryHandle.open(dataRoot)) {
            JobUsers.JobUser user;
            try (DirectoryHandle storage = root.directory(JobDirectories.STORAGE, DirectoryHandle.PRIVATE)) {
                user = users.prepare(storage, key.namespace());
            }
            try (DirectoryHandle checkpoints = root.directories(DirectoryHandle.PRIVATE, CHECKPOINTS, key.namespace())) {
                handOver(checkpoints, key.name(), user);
            }
            Path storage = root.path().resolve(JobDirectories.STORAGE).resolve(key.namespace());
            Path checkpoints = checkpointDir(root.path(), key.namespace(), key.name());
            try (DirectoryHandle job = root.directories(DirectoryHandle.PRIVATE, JobDirectories.JOBS, key.namespace(),
                    key.name())) {
                job.directory(LOGS, DirectoryHandle.PRIVATE).close();
                Path code = codePackage == null ? null : unpacked(job, key.namespace(), codePackage);
                List<String> entries = code == null ? List.of() : codeEntries(job);
                Map<String, ReplicaDirectories> replicas = new LinkedHashMap<>();
                try (DirectoryHandle work = claimed(job, WORK)) {
                    for (String id : replicaIds) {
                        if (work.attributes(id).isEmpty()) {
                            try (DirectoryHandle own = work.directory(id, DirectoryHandle.PRIVATE)) {
                                for (String entry : entries) {
                                    own.link(entry, TO_CODE + entry);
                                }
                            }
                        }
                        handOver(work, id, user);
                        replicas.put(id, new ReplicaDirectories(work.path().resolve(id), code, storage, checkpoints));
                    }
                }
                return new Prepared(user, replicas);
            }
        }
    }

    /** Makes the directory where missing and gives it, itself, to the replicas' user. */
    private static void handOver(DirectoryHandle parent, String name, JobUsers.JobUser user) throws IOException {
        parent.directory(name, DirectoryHandle.PRIVATE).close();
        if (user != null) {
            parent.chown(name, user.uid(), user.gid());
        }
    }

    /**
     * The service's own directory of that name: a version before this one handed a job's whole
     * {@code work/} to the job's user, who could have put links in it; it is the service's again.
     */
    private static DirectoryHandle claimed(DirectoryHandle job, String name) throws IOException {
        DirectoryHandle dir = job.directory(name, DirectoryHandle.PRIVATE);
        try {
            if (dir.ownerUid() != job.ownerUid()) {
                dir.chown(job.ownerUid(), job.ownerGid());
                dir.chmod(DirectoryHandle.PRIVATE);
            }
            return dir;
        } catch (IOException | RuntimeException e) {
            dir.close();
            throw e;
        }
    }

    /** The unpacked package: unpacked beside, then renamed into place, so that half of one is never taken for it. */
    private Path unpacked(DirectoryHandle job, String namespace, String codePackage) throws IOException {
        if (job.attributes(CODE).isEmpty()) {
            String unpacking = ".unpacking-" + UUID.randomUUID();
            job.directory(unpacking, PosixFilePermissions.fromString("rwxr-xr-x")).close();
            try {
                packages.unpackInto(namespace, codePackage, job.path().resolve(unpacking));
            } catch (IOException e) {
                job.deleteTree(unpacking);
                throw new UnpackFailedException(e.getMessage());
            }
            job.rename(unpacking, CODE);
        }
        job.directory(CODE).close(); // a directory, not a link
        return job.path().resolve(CODE);
    }

    private static List<String> codeEntries(DirectoryHandle job) throws IOException {
        try (DirectoryHandle code = job.directory(CODE)) {
            return code.names().stream().sorted().toList();
        }
    }
}

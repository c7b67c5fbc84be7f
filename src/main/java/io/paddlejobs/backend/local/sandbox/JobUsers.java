package io.paddlejobs.backend.local.sandbox;

import io.paddlejobs.backend.DirectoryHandle;
import java.io.IOException;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who each namespace's replicas run as, and the storage directory of each namespace
 * ({@code storage/<namespace>}), made before its first job starts. As root with confined replicas,
 * every namespace has a user of its own from the operator's range ({@code sandbox-first-uid},
 * {@code LocalProperties.SANDBOX_UIDS}), with the group of the same number: its own, because the kernel counts
 * {@code RLIMIT_NPROC} per real user, so that one namespace's processes never count against
 * another's (nor, root being exempt, against the service's); the same for every job of the
 * namespace, so that a job reads what an earlier one wrote (a job of an earlier job's name resumes
 * from its checkpoints). The user is kept where it cannot be lost apart from the files it owns: it
 * owns {@code storage/<namespace>}, and a namespace whose storage has no owner from the range (new,
 * or made before the range) is given the lowest user of it that owns no other namespace's storage.
 * Elsewhere replicas run as the service's user (or in a user namespace of their own mapped to it).
 */
public final class JobUsers {

    private static final Logger log = LoggerFactory.getLogger(JobUsers.class);

    /** A user and the group of the same number. */
    public record JobUser(int uid, int gid) {
    }

    private final int first;
    private final int count;
    /** Null: replicas run as the service's user. Read from the storage directories' owners at the first use. */
    private Map<String, Integer> byNamespace;

    private JobUsers(int first, int count) {
        this.first = first;
        this.count = count;
    }

    /** Replicas run as the service's own user. */
    public static JobUsers serviceUser() {
        return new JobUsers(0, 0);
    }

    /** A user per namespace from {@code first} to {@code first + count - 1}. */
    public static JobUsers perNamespace(int first, int count) {
        return new JobUsers(first, count);
    }

    public boolean perNamespace() {
        return count > 0;
    }

    /** The first user of the range: bubblewrap is tried as it at start. */
    JobUser probe() {
        return new JobUser(first, first);
    }

    /**
     * The namespace's storage directory in {@code storage}, made (private) where missing, and who the
     * namespace's replicas run as: then its owner. Null when they run as the service's user.
     *
     * @throws IOException when there is no directory (a link or a file in its place: nothing is
     *                     followed), or every user of the range is taken
     */
    public synchronized JobUser prepare(DirectoryHandle storage, String namespace) throws IOException {
        storage.directory(namespace, DirectoryHandle.PRIVATE).close(); // a directory, not a link
        if (!perNamespace()) {
            return null;
        }
        if (byNamespace == null) {
            byNamespace = owners(storage);
        }
        Integer uid = byNamespace.get(namespace);
        if (uid == null) {
            uid = lowestFree();
            int previous = storage.ownerUid(namespace);
            storage.chown(namespace, uid, uid);
            byNamespace.put(namespace, uid);
            log.info("Namespace {} runs as uid {} from now on{}", namespace, uid, previous == 0 ? ""
                    : " (its storage was uid " + previous + "'s: files in it that replicas must change need "
                    + "chown -R " + uid + ":" + uid + ")");
        }
        return new JobUser(uid, uid);
    }

    /** Whose each namespace's storage is, where that is a user of the range not already another namespace's. */
    private Map<String, Integer> owners(DirectoryHandle storage) throws IOException {
        Map<String, Integer> owners = new HashMap<>();
        Map<Integer, String> taken = new HashMap<>();
        for (String namespace : storage.names().stream().sorted().toList()) {
            Optional<PosixFileAttributes> attributes = storage.attributes(namespace);
            if (attributes.isEmpty() || !attributes.get().isDirectory()) {
                continue;
            }
            int uid = storage.ownerUid(namespace);
            if (uid >= first && uid < first + count && taken.putIfAbsent(uid, namespace) == null) {
                owners.put(namespace, uid);
            }
        }
        return owners;
    }

    private int lowestFree() throws IOException {
        Set<Integer> used = new HashSet<>(byNamespace.values());
        for (int uid = first; uid < first + count; uid++) {
            if (!used.contains(uid)) {
                return uid;
            }
        }
        throw new IOException("every one of the %d users from paddlejobs.local.sandbox-first-uid (%d) runs a "
                .formatted(count, first) + "namespace already: an operator must remove namespaces' storage no longer used");
    }
}

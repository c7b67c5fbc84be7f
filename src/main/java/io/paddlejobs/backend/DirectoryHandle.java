package io.paddlejobs.backend;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A directory the service holds open, and what it makes, writes, hands over and deletes below it:
 * each step one name relative to the open directory, and no link followed. Jobs can write where
 * the service works (all of a Slurm shared directory is the job user's too; a local job owns its
 * working and storage directories), and a path looked up again at each step could pass through a
 * link a job planted a moment before: the service, as root, would make, chown or delete wherever
 * it points. Held open (Linux), a directory is reached through {@code /proc/self/fd/<fd>}, which
 * the kernel resolves to the open directory itself whatever was renamed or replaced since; only the
 * last name of each step is looked up, and never followed ({@code openat} with {@code O_NOFOLLOW},
 * {@code mkdir}, {@code lchown}, {@code unlink}, {@code rename}). Elsewhere each step checks its
 * path first, and a swap at that moment is not caught. Not thread-safe; close it.
 */
public final class DirectoryHandle implements AutoCloseable {

    /** {@code rwx------}: what only the service (or, handed over, only the job's user) may enter. */
    public static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");
    /** {@code rw-------}: a file only the service reads. */
    public static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");

    private final Path path;
    private final int fd;
    /** How this directory is reached: {@code /proc/self/fd/<fd>} where it is held, else its path. */
    private final Path via;

    private DirectoryHandle(Path path, int fd) {
        this.path = path;
        this.fd = fd;
        this.via = fd >= 0 ? Path.of("/proc/self/fd", Integer.toString(fd)) : path;
    }

    /**
     * Opens a directory whose path the operator gave (the data root, the shared directory): links on
     * it are followed, since nothing of a job's is on it.
     */
    public static DirectoryHandle open(Path trusted) throws IOException {
        Path real = trusted.toRealPath();
        Libc libc = Libc.INSTANCE;
        if (libc == null) {
            if (!Files.isDirectory(real)) {
                throw new UnusableDirectoryException(real, "is not a directory");
            }
            return new DirectoryHandle(real, -1);
        }
        try {
            return new DirectoryHandle(real, libc.c.open(real.toString(), directoryFlags(libc)));
        } catch (LastErrorException e) {
            throw failure(real, e);
        }
    }

    /** Where this directory was found: for messages, and for programs given it while no job can change its parents. */
    public Path path() {
        return path;
    }

    /**
     * The directory {@code name} below this one.
     *
     * @throws NoSuchFileException         when there is none
     * @throws UnusableDirectoryException when it is a link or not a directory
     */
    public DirectoryHandle directory(String name) throws IOException {
        Path logical = path.resolve(checked(name));
        Libc libc = Libc.INSTANCE;
        if (fd < 0 || libc == null) {
            PosixFileAttributes attributes = attributes(name)
                    .orElseThrow(() -> new NoSuchFileException(logical.toString()));
            if (!attributes.isDirectory()) {
                throw new UnusableDirectoryException(logical, attributes.isSymbolicLink() ? "is a link" : "is not a directory");
            }
            return new DirectoryHandle(logical, -1);
        }
        try {
            return new DirectoryHandle(logical, libc.c.openat(fd, name, directoryFlags(libc) | libc.noFollow));
        } catch (LastErrorException e) {
            if (e.getErrorCode() == Libc.ENOTDIR && attributes(name).map(PosixFileAttributes::isSymbolicLink).orElse(false)) {
                throw new UnusableDirectoryException(logical, "is a link"); // O_DIRECTORY is checked before O_NOFOLLOW
            }
            throw failure(logical, e);
        }
    }

    /** As {@link #directory(String)}, made with these permissions first when there is none. */
    public DirectoryHandle directory(String name, Set<PosixFilePermission> permissions) throws IOException {
        try {
            Files.createDirectory(at(name), PosixFilePermissions.asFileAttribute(permissions));
        } catch (FileAlreadyExistsException exists) {
            // a directory, or what directory() refuses
        } catch (FileSystemException e) {
            throw relabelled(e, name);
        }
        return directory(name);
    }

    /** Each name a directory below the last, made where missing; the last one held. */
    public DirectoryHandle directories(Set<PosixFilePermission> permissions, String... names) throws IOException {
        DirectoryHandle current = null;
        try {
            for (String name : names) {
                DirectoryHandle next = (current == null ? this : current).directory(name, permissions);
                if (current != null) {
                    current.close();
                }
                current = next;
            }
        } catch (IOException | RuntimeException e) {
            if (current != null) {
                current.close();
            }
            throw e;
        }
        return current;
    }

    /** What is at {@code name}, itself (a link is a link); empty when nothing is. */
    public Optional<PosixFileAttributes> attributes(String name) throws IOException {
        try {
            return Optional.of(Files.readAttributes(at(name), PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (FileSystemException e) {
            throw relabelled(e, name);
        }
    }

    /** The user {@code name} itself belongs to, by number; -1 when nothing is there. */
    public int ownerUid(String name) throws IOException {
        try {
            return (Integer) Files.getAttribute(at(name), "unix:uid", LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return -1;
        } catch (FileSystemException e) {
            throw relabelled(e, name);
        }
    }

    /** This directory's own owner, by number. */
    public int ownerUid() throws IOException {
        return (Integer) Files.getAttribute(via, "unix:uid");
    }

    /** This directory's own group, by number. */
    public int ownerGid() throws IOException {
        return (Integer) Files.getAttribute(via, "unix:gid");
    }

    /** The names in this directory. */
    public List<String> names() throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(via)) {
            entries.forEach(entry -> names.add(entry.getFileName().toString()));
        }
        return names;
    }

    /** Writes a file. */
    @FunctionalInterface
    public interface Writing {
        void to(OutputStream out) throws IOException;
    }

    /**
     * Replaces the file {@code name} in one step: written beside it first (a new file, no link
     * followed), then renamed over it; a failed write leaves the previous file whole and no
     * temporary file behind.
     */
    public void write(String name, Set<PosixFilePermission> permissions, Writing write) throws IOException {
        String temp = "." + checked(name) + "." + UUID.randomUUID() + ".tmp";
        try {
            try (SeekableByteChannel channel = Files.newByteChannel(at(temp), Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(permissions));
                 OutputStream out = Channels.newOutputStream(channel)) {
                write.to(out);
            }
            Files.move(at(temp), at(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (FileSystemException e) {
            Files.deleteIfExists(at(temp));
            throw relabelled(e, name);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(at(temp));
            throw e;
        }
    }

    /** Makes a symbolic link {@code name} pointing to {@code target} (which is not looked at). */
    public void link(String name, String target) throws IOException {
        try {
            Files.createSymbolicLink(at(name), Path.of(target));
        } catch (FileSystemException e) {
            throw relabelled(e, name);
        }
    }

    /** Gives {@code name} itself (a link stays a link, and what it points to is untouched) to this user and group. */
    public void chown(String name, int uid, int gid) throws IOException {
        try {
            Files.setAttribute(at(name), "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(at(name), "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
        } catch (FileSystemException e) {
            throw relabelled(e, name);
        }
    }

    /** Gives this directory itself to this user and group. */
    public void chown(int uid, int gid) throws IOException {
        Files.setAttribute(via, "unix:uid", uid);
        Files.setAttribute(via, "unix:gid", gid);
    }

    /** Sets this directory's own mode. */
    public void chmod(Set<PosixFilePermission> permissions) throws IOException {
        Files.setPosixFilePermissions(via, permissions);
    }

    /** Renames {@code from} to {@code to}, both in this directory. */
    public void rename(String from, String to) throws IOException {
        try {
            Files.move(at(from), at(to), StandardCopyOption.ATOMIC_MOVE);
        } catch (FileSystemException e) {
            throw relabelled(e, from);
        }
    }

    /**
     * Deletes {@code name} and, when it is a directory, everything below it, children first; nothing
     * is followed, so nothing outside is touched whatever a job links there ({@link TreeDeletion}).
     * What is already gone is what was wanted.
     *
     * @throws IOException when something could not be deleted (the rest was), for the first of them
     */
    public void deleteTree(String name) throws IOException {
        TreeDeletion.delete(this, checked(name));
    }

    @Override
    public void close() {
        if (fd >= 0 && Libc.INSTANCE != null) {
            Libc.INSTANCE.closeQuietly(fd);
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }

    /** How {@code name} in this directory is reached. */
    Path at(String name) {
        return via.resolve(checked(name));
    }

    /** One name, never a path: {@code a/b} or {@code ..} would leave the directory held. */
    private static String checked(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a single file name: " + name);
        }
        return name;
    }

    private static int directoryFlags(Libc libc) {
        return Libc.READ_ONLY | Libc.CLOSE_ON_EXEC | libc.directory;
    }

    private static IOException failure(Path path, LastErrorException e) {
        return switch (e.getErrorCode()) {
            case Libc.ENOENT -> new NoSuchFileException(path.toString());
            case Libc.ELOOP -> new UnusableDirectoryException(path, "is a link");
            case Libc.ENOTDIR -> new UnusableDirectoryException(path, "is not a directory");
            default -> new FileSystemException(path.toString(), null, "cannot be opened: errno " + e.getErrorCode());
        };
    }

    /** The same failure, naming the file by its path rather than by {@code /proc/self/fd/...}. */
    FileSystemException relabelled(FileSystemException e, String name) {
        String file = path.resolve(name).toString();
        FileSystemException named = e instanceof NoSuchFileException ? new NoSuchFileException(file)
                : e instanceof FileAlreadyExistsException ? new FileAlreadyExistsException(file)
                : e instanceof AccessDeniedException ? new AccessDeniedException(file, null, e.getReason())
                : new FileSystemException(file, null, e.getReason());
        named.initCause(e);
        return named;
    }

    /** A directory the service was to work in is a link, or no directory at all: a job replaced it. */
    public static final class UnusableDirectoryException extends FileSystemException {

        UnusableDirectoryException(Path path, String why) {
            super(path.toString(), null, why);
        }
    }
}

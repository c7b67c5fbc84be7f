package io.paddlejobs.backend;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import java.util.Locale;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * The few calls of the C library the JDK lacks ({@code open} and {@code openat} with flags of our
 * choosing), through JNA, with the flags of this machine's architecture. {@link #INSTANCE} is null
 * where there are none (not Linux, or JNA could not load): callers then check paths before they use
 * them, and a file or directory swapped in at that moment is not caught.
 */
final class Libc {

    static final int ENOENT = 2;
    static final int ENXIO = 6;
    static final int ENOTDIR = 20;
    static final int ELOOP = 40;

    static final int READ_ONLY = 0;
    static final int NO_CTTY = 0400;
    static final int NON_BLOCK = 04000;
    static final int CLOSE_ON_EXEC = 02000000;

    static final Libc INSTANCE = load();

    interface C extends Library {
        int open(String path, int flags) throws LastErrorException;

        int openat(int directory, String path, int flags) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    final C c;
    /** {@code O_NOFOLLOW}: the last name of the path may not be a link. */
    final int noFollow;
    /** {@code O_DIRECTORY}: the open fails unless it is a directory. */
    final int directory;

    private Libc(C c, int noFollow, int directory) {
        this.c = c;
        this.noFollow = noFollow;
        this.directory = directory;
    }

    private static Libc load() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        boolean linux = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
        // O_NOFOLLOW and O_DIRECTORY are among the flags whose values differ between Linux's architectures.
        boolean armOrPower = Set.of("aarch64", "arm", "ppc64", "ppc64le").contains(arch);
        boolean generic = Set.of("amd64", "x86_64", "riscv64", "s390x").contains(arch);
        if (!linux || !(armOrPower || generic)) {
            return null;
        }
        try {
            return new Libc(com.sun.jna.Native.load("c", C.class), armOrPower ? 0100000 : 0400000,
                    armOrPower ? 040000 : 0200000);
        } catch (LinkageError e) {
            // JNA could not unpack or load its library (a temporary directory mounted noexec)
            LoggerFactory.getLogger(Libc.class).warn("No native open(2) here ({}): files and directories jobs can write "
                    + "are checked before each use, and one swapped in at that moment is not caught", e.getMessage());
            return null;
        }
    }

    /** Closes a descriptor this process opened; a failure leaves nothing to do. */
    void closeQuietly(int fd) {
        try {
            c.close(fd);
        } catch (LastErrorException e) {
            // closed anyway (Linux frees the descriptor even when close reports an error)
        }
    }
}

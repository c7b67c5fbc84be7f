package io.paddlejobs.backend.local.schedule;

import io.paddlejobs.backend.local.record.DataDirectoryUnwritableException;
import io.paddlejobs.backend.local.record.StorageFullException;
import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.unit.DataSize;

/**
 * The free-space floor of the data root: below it submits are refused, before anything is written,
 * so that jobs already running keep room for their logs and records.
 */
public final class DiskSpace {

    private static final Logger log = LoggerFactory.getLogger(DiskSpace.class);

    private final Path dataRoot;
    private final DataSize floor;
    /** Found once: looking it up reads the mount table, which is most of a check's cost on Linux. */
    private volatile FileStore fileStore;

    public DiskSpace(Path dataRoot, DataSize floor) {
        this.dataRoot = dataRoot;
        this.floor = floor;
    }

    /** @throws StorageFullException when the data root has less free space than the floor */
    public void requireRoomFor(JobKey key) {
        long free = freeBytes();
        if (free >= 0 && free < floor.toBytes()) {
            throw StorageFullException.belowFloor(key, free, floor);
        }
    }

    /**
     * What a submit that failed on the way to disk answers: a directory the service may not write is
     * told apart from a full disk, since the cure (an operator's, not deleting jobs) differs.
     */
    public RuntimeException refusal(JobKey key, RuntimeException e) {
        if (e instanceof StorageFullException) {
            return e;
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            String why = unwritable(cause);
            if (why != null) {
                log.warn("Cannot write the data directory {}: {}", dataRoot.toAbsolutePath(), cause.toString());
                return new DataDirectoryUnwritableException(key, why, e);
            }
        }
        return StorageFullException.writeFailed(key, e);
    }

    /** Why a failed write says the directory is not writable at all, or null when it does not. */
    private static String unwritable(Throwable cause) {
        if (cause instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (cause instanceof FileSystemException fs && fs.getReason() != null
                && fs.getReason().toLowerCase(Locale.ROOT).contains("read-only file system")) {
            return "its file system is read-only";
        }
        return null;
    }

    /** Usable bytes of the data root's file system, or -1 when it cannot be told. */
    private long freeBytes() {
        try {
            FileStore found = fileStore;
            if (found == null) {
                Path existing = dataRoot.toAbsolutePath();
                while (existing != null && !Files.exists(existing)) {
                    existing = existing.getParent();
                }
                if (existing == null) {
                    return -1;
                }
                found = Files.getFileStore(existing);
                if (existing.equals(dataRoot.toAbsolutePath())) {
                    fileStore = found; // a parent's may not be the data root's, once that is created
                }
            }
            return found.getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }
}

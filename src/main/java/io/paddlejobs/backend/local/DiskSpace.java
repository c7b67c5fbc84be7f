package io.paddlejobs.backend.local;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.util.unit.DataSize;

/**
 * The free-space floor of the data root: below it submits are refused, before anything is written,
 * so that jobs already running keep room for their logs and records.
 */
final class DiskSpace {

    private final Path dataRoot;
    private final DataSize floor;
    /** Found once: looking it up reads the mount table, which is most of a check's cost on Linux. */
    private volatile FileStore fileStore;

    DiskSpace(Path dataRoot, DataSize floor) {
        this.dataRoot = dataRoot;
        this.floor = floor;
    }

    /** @throws StorageFullException when the data root has less free space than the floor */
    void requireRoomFor(JobKey key) {
        long free = freeBytes();
        if (free >= 0 && free < floor.toBytes()) {
            throw StorageFullException.belowFloor(key, free, floor);
        }
    }

    /** What a submit that failed on the way to disk answers. */
    RuntimeException refusal(JobKey key, RuntimeException e) {
        if (e instanceof StorageFullException) {
            return e;
        }
        return StorageFullException.writeFailed(key, e);
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

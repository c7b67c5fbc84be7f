package io.paddlejobs.history;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.util.unit.DataSize;

/**
 * The free-space floor ({@code paddlejobs.min-free-space}) of the disk the embedded history's file is on:
 * below it, finished jobs are kept without their logs, the history's one part that grows by megabytes a job
 * ({@code history.max-log-size} a replica), so that the service's other stores and running jobs keep their room.
 * A history in a database of its own (PostgreSQL) has that database's disk, which the service cannot see.
 */
record DiskFloor(Path dir, DataSize floor) {

    /** No floor: a store whose disk is not the service's to watch. */
    static final DiskFloor NONE = new DiskFloor(null, DataSize.ofBytes(0));

    /** Usable bytes left on the history's disk when they are below the floor; -1 when they are not (or cannot be told). */
    long freeBelowFloor() {
        if (dir == null) {
            return -1;
        }
        try {
            long free = Files.getFileStore(dir).getUsableSpace();
            return free < floor.toBytes() ? free : -1;
        } catch (IOException e) {
            return -1;
        }
    }
}

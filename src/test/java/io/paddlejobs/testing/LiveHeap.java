package io.paddlejobs.testing;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** What a test's heap holds, for tests that bound what a structure keeps (red team, 7 Dec: memory exhaustion). */
public final class LiveHeap {

    private LiveHeap() {
    }

    /** Bytes of live objects: {@code System.gc()} is a full, stop-the-world collection on the JVM's default collector. */
    public static long bytes() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}

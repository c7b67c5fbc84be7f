package io.paddlejobs.backend.local.schedule;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.BitSet;

/**
 * Hands out blocks of consecutive ports, one block per running job, so that two jobs never
 * collide. A block is skipped when some other program already listens on one of its ports.
 */
public final class PortAllocator {

    private final int first;
    private final int last;
    private final BitSet taken = new BitSet();
    private int cursor;

    public PortAllocator(int first, int last) {
        this.first = first;
        this.last = last;
        this.cursor = first;
    }

    /** @throws IllegalStateException when no free block of that size is left */
    synchronized int allocate(int count) {
        int span = last - first + 1;
        for (int tried = 0; tried < span; tried += count) {
            if (cursor + count - 1 > last) {
                cursor = first;
            }
            int start = cursor;
            cursor += count;
            if (isFree(start, count)) {
                taken.set(start - first, start - first + count);
                return start;
            }
        }
        throw new IllegalStateException("no free block of " + count + " ports between " + first + " and " + last);
    }

    synchronized void release(int start, int count) {
        if (start >= first && start + count - 1 <= last) {
            taken.clear(start - first, start - first + count);
        }
    }

    private boolean isFree(int start, int count) {
        if (taken.get(start - first, start - first + count).cardinality() > 0) {
            return false;
        }
        for (int port = start; port < start + count; port++) {
            if (!canBind(port)) {
                return false;
            }
        }
        return true;
    }

    private static boolean canBind(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

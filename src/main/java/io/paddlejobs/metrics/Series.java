package io.paddlejobs.metrics;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One metric of one replica, as points in step order, never more than {@code capacity}. When it is
 * full, every other older point is dropped (the first and the last are kept), so a long run keeps
 * its whole shape at half the resolution rather than losing its beginning. Each point carries the
 * sequence number it was added under, for reads of what is new since an earlier one.
 *
 * <p>Not thread-safe: {@link JobMetrics} guards it.
 */
final class Series {

    private final int capacity;
    private long[] steps = new long[8];
    private double[] values = new double[8];
    private long[] times = new long[8];
    private long[] sequence = new long[8];
    private int[] attempts = new int[8];
    private int size;

    Series(int capacity) {
        if (capacity < 4) {
            throw new IllegalArgumentException("capacity must be at least 4, was " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Adds a point after the last one. A step not above the last is a line read again (a log
     * re-read after a reconnection) and is not added.
     *
     * @return whether it was added
     */
    boolean add(long step, double value, Instant time, int attempt, long seq) {
        if (size > 0 && step <= steps[size - 1]) {
            return false;
        }
        if (size == capacity) {
            thin();
        }
        if (size == steps.length) {
            int grown = Math.min(capacity, steps.length * 2);
            steps = Arrays.copyOf(steps, grown);
            values = Arrays.copyOf(values, grown);
            times = Arrays.copyOf(times, grown);
            sequence = Arrays.copyOf(sequence, grown);
            attempts = Arrays.copyOf(attempts, grown);
        }
        steps[size] = step;
        values[size] = value;
        times[size] = time.toEpochMilli();
        sequence[size] = seq;
        attempts[size] = attempt;
        size++;
        return true;
    }

    /** The points added after sequence number {@code since}, in step order. */
    List<MetricPoint> since(long since) {
        int first = firstAfter(since);
        List<MetricPoint> points = new ArrayList<>(size - first);
        for (int i = first; i < size; i++) {
            points.add(new MetricPoint(steps[i], values[i], Instant.ofEpochMilli(times[i]), attempts[i]));
        }
        return points;
    }

    int size() {
        return size;
    }

    // Sequence numbers grow with the index (points are only appended), so a binary search finds the first new one.
    private int firstAfter(long since) {
        int low = 0;
        int high = size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (sequence[mid] <= since) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Keeps points 0, 2, 4, ... and the last one. */
    private void thin() {
        int kept = 0;
        for (int i = 0; i < size - 1; i += 2) {
            move(i, kept++);
        }
        move(size - 1, kept++);
        size = kept;
    }

    private void move(int from, int to) {
        steps[to] = steps[from];
        values[to] = values[from];
        times[to] = times[from];
        sequence[to] = sequence[from];
        attempts[to] = attempts[from];
    }
}

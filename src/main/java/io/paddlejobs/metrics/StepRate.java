package io.paddlejobs.metrics;

import io.paddlejobs.job.Progress;

/**
 * One trainer's last reported step and total, and its recent pace: the last {@value #WINDOW} steps
 * and when they were read. The rate is taken over that window, so it follows a run that speeds up
 * or slows down, and it is known only once the window spans a second: lines read back in one burst
 * (a log read again after the service restarted) say nothing of the pace.
 *
 * <p>Not thread-safe: {@link JobMetrics} guards it.
 */
final class StepRate {

    static final int WINDOW = 16;
    private static final long MIN_SPAN_MILLIS = 1000;

    private final long[] steps = new long[WINDOW];
    private final long[] times = new long[WINDOW];
    private int size;
    private int next;
    private Long totalSteps;

    /** A report; a step not above the last is a line read again, and only its total counts. */
    void add(long step, Long total, long timeMillis) {
        if (total != null) {
            totalSteps = total;
        }
        if (size > 0 && step <= lastStep()) {
            return;
        }
        steps[next] = step;
        times[next] = timeMillis;
        next = (next + 1) % WINDOW;
        size = Math.min(size + 1, WINDOW);
    }

    /** Whether a report of {@code step} would take this trainer further than it has been. */
    boolean isNew(long step) {
        return size == 0 || step > lastStep();
    }

    long lastStep() {
        return steps[(next - 1 + WINDOW) % WINDOW];
    }

    Long totalSteps() {
        return totalSteps;
    }

    /** Steps per second over the window; {@code null} while it spans less than a second. */
    Double stepsPerSecond() {
        if (size < 2) {
            return null;
        }
        int last = (next - 1 + WINDOW) % WINDOW;
        int first = (next - size + WINDOW) % WINDOW;
        long span = times[last] - times[first];
        return span < MIN_SPAN_MILLIS ? null : (steps[last] - steps[first]) * 1000.0 / span;
    }

    /** This trainer's progress; {@code total} where it reported none itself (another trainer did). */
    Progress progress(String trainer, Long total) {
        Long of = totalSteps != null ? totalSteps : total;
        long step = lastStep();
        Double rate = stepsPerSecond();
        Double fraction = of == null ? null : Math.min(1.0, (double) step / of);
        Long eta = of == null || rate == null || rate <= 0 ? null : Math.round(Math.max(0, of - step) / rate);
        return new Progress(step, of, fraction, rate, eta, trainer);
    }
}

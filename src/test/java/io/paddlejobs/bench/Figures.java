package io.paddlejobs.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A benchmark's measurements, printed as one table at the end (so that they are not lost in logs). */
public final class Figures {

    private final String title;
    private final List<String> lines = new ArrayList<>();

    public Figures(String title) {
        this.title = title;
    }

    public void latency(String what, List<Long> nanos) {
        lines.add(String.format("%-62s p50 %8.2f ms   p99 %8.2f ms   (n=%d)", what, p(nanos, 50), p(nanos, 99), nanos.size()));
    }

    public void rate(String what, double perSecond) {
        lines.add(String.format("%-62s %8.1f /s", what, perSecond));
    }

    public void ratio(String what, double ratio, String target) {
        lines.add(String.format("%-62s ratio %6.2f   (target %s)", what, ratio, target));
    }

    public void count(String what, long count, String target) {
        lines.add(String.format("%-62s %8d   (target %s)", what, count, target));
    }

    public void value(String what, double value, String unit, String target) {
        lines.add(String.format("%-62s %8.2f %s   (target %s)", what, value, unit, target));
    }

    /** The classes whose live heap grew most from {@code before} to {@code after}, each over {@code per} {@code unit}s. */
    public void heldBy(HeapHistogram before, HeapHistogram after, int classes, double per, String unit) {
        for (HeapHistogram.Growth growth : after.largestGrowthSince(before, classes)) {
            lines.add("  %8.0f B, %6.2f objects per %s: %s".formatted(growth.bytes() / per, growth.instances() / per, unit,
                    growth.className()));
        }
    }

    /** A line of its own under the figure before it. */
    public void note(String line) {
        lines.add(line);
    }

    public void print() {
        System.out.println();
        System.out.println("=== " + title + " ===");
        lines.forEach(System.out::println);
        System.out.println();
    }

    /** The {@code percent}th percentile, in milliseconds. */
    public static double p(List<Long> nanos, int percent) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, index)) / 1_000_000.0;
    }
}

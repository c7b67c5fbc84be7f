package io.paddlejobs.sweeps;

import io.paddlejobs.metrics.MetricPoint;
import io.paddlejobs.metrics.MetricsSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * A trial's objective metric by step, as its first reporting trainer printed it ({@code trainer-0} in a
 * job with several: in data-parallel training every rank reports the same averaged loss, or its own shard's).
 */
record Curve(List<Point> points) {

    static final Curve NONE = new Curve(List.of());

    record Point(long step, double value) {
    }

    Curve {
        points = List.copyOf(points);
    }

    /** The metric's points in the first replica (in the service's order: trainer-0, trainer-1, ...) that has it. */
    static Curve of(MetricsSnapshot snapshot, String metric) {
        Map<String, List<MetricPoint>> replicas = snapshot.metrics().get(metric);
        if (replicas == null || replicas.isEmpty()) {
            return NONE;
        }
        TreeMap<String, List<MetricPoint>> ordered = new TreeMap<>(Curve::replicaOrder);
        ordered.putAll(replicas);
        return new Curve(ordered.firstEntry().getValue().stream().map(p -> new Point(p.step(), p.value())).toList());
    }

    boolean isEmpty() {
        return points.isEmpty();
    }

    /** The last step reported; -1 before any. */
    long lastStep() {
        return points.isEmpty() ? -1 : points.get(points.size() - 1).step();
    }

    /** The trial's objective value: its last, or its best, up to and including {@code step}. */
    Optional<Point> value(SweepRequest.Objective objective, long step) {
        Point chosen = null;
        for (Point point : points) {
            if (point.step() > step) {
                break;
            }
            if (chosen == null || !objective.atBest() || Goal.better(objective, point.value(), chosen.value())) {
                chosen = point;
            }
        }
        return Optional.ofNullable(chosen);
    }

    /** The best value up to and including {@code step}, whatever {@code at} says. */
    OptionalDouble bestUpTo(SweepRequest.Objective objective, long step) {
        OptionalDouble best = OptionalDouble.empty();
        for (Point point : points) {
            if (point.step() > step) {
                break;
            }
            if (best.isEmpty() || Goal.better(objective, point.value(), best.getAsDouble())) {
                best = OptionalDouble.of(point.value());
            }
        }
        return best;
    }

    /** The mean of the values up to and including {@code step}: the running average the median rule compares. */
    OptionalDouble averageUpTo(long step) {
        return points.stream().filter(p -> p.step() <= step).mapToDouble(Point::value).average();
    }

    /** trainer-2 before trainer-10. */
    private static int replicaOrder(String a, String b) {
        String roleA = a.replaceAll("-\\d+$", "");
        String roleB = b.replaceAll("-\\d+$", "");
        if (!roleA.equals(roleB)) {
            return roleA.compareTo(roleB);
        }
        return Long.compare(index(a), index(b)) != 0 ? Long.compare(index(a), index(b)) : a.compareTo(b);
    }

    private static long index(String replica) {
        var digits = java.util.regex.Pattern.compile("(\\d+)$").matcher(replica);
        return digits.find() ? Long.parseLong(digits.group(1)) : -1;
    }
}

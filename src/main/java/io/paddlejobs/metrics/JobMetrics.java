package io.paddlejobs.metrics;

import io.paddlejobs.job.Progress;
import io.paddlejobs.planning.Replica;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything one job reported: per metric name, per replica, a bounded {@link Series}. Every
 * point added gets the next sequence number; a reader passes the last one it saw ({@code since})
 * and gets only what came after.
 */
final class JobMetrics {

    private final MetricsProperties limits;
    private final Instant jobCreatedAt;
    // Sorted, so that every read lists metrics and replicas in the same order.
    private final Map<String, Map<String, Series>> series = new TreeMap<>();
    private final Map<String, StepRate> steps = new TreeMap<>(Replica.ID_ORDER);
    private int seriesCount;
    private long cursor;
    private long ignoredLines;

    /** @param jobCreatedAt tells this job from a later one submitted under the same name */
    JobMetrics(MetricsProperties limits, Instant jobCreatedAt) {
        this.limits = limits;
        this.jobCreatedAt = jobCreatedAt;
    }

    Instant jobCreatedAt() {
        return jobCreatedAt;
    }

    /**
     * A report of a replica's output (what follows the marker word); anything else is passed over. A report
     * that cannot be read is counted, so that a misspelt one is noticed.
     *
     * @param attempt the job's attempt whose output the line is (from 0)
     * @return whether it took the replica to a step it had not reported before
     */
    synchronized boolean read(String replica, String line, Instant time, int attempt) {
        if (!MetricLine.isReport(line)) {
            return false;
        }
        var report = MetricLine.parse(line);
        if (report.isEmpty()) {
            ignoredLines++;
            return false;
        }
        StepRate rate = steps.computeIfAbsent(replica, r -> new StepRate());
        boolean newStep = rate.isNew(report.get().step());
        rate.add(report.get().step(), report.get().totalSteps(), time.toEpochMilli());
        boolean refused = false;
        for (Map.Entry<String, Double> value : report.get().values().entrySet()) {
            Series target = seriesFor(value.getKey(), replica);
            if (target == null) {
                refused = true; // over the limit of series per job
            } else {
                target.add(report.get().step(), value.getValue(), time, attempt, cursor + 1);
                cursor++;
            }
        }
        if (refused) {
            ignoredLines++;
        }
        return newStep;
    }

    /** As {@link #read(String, String, Instant, int)}, for a job's first attempt. */
    boolean read(String replica, String line, Instant time) {
        return read(replica, line, time, 0);
    }

    /** A report line that could not be read whole (over the length limit). */
    synchronized void ignoreLine() {
        ignoredLines++;
    }

    /**
     * What was added after {@code since}. A cursor from the future (this service restarted, or
     * dropped and re-read the job since) is answered with everything.
     */
    synchronized MetricsSnapshot since(long since) {
        long from = since > cursor ? 0 : since;
        Map<String, Map<String, List<MetricPoint>>> points = new LinkedHashMap<>();
        series.forEach((name, replicas) -> {
            Map<String, List<MetricPoint>> byReplica = new LinkedHashMap<>();
            replicas.forEach((replica, s) -> {
                List<MetricPoint> added = s.since(from);
                if (!added.isEmpty()) {
                    byReplica.put(replica, added);
                }
            });
            if (!byReplica.isEmpty()) {
                points.put(name, byReplica);
            }
        });
        return new MetricsSnapshot(cursor, ignoredLines, points, progress().orElse(null));
    }

    /**
     * How far the slowest reporting trainer is ({@link Progress}); empty before any reported. A
     * trainer that reports no {@code total_steps} is measured against the largest another gave.
     */
    synchronized Optional<Progress> progress() {
        Long anyTotal = steps.values().stream().map(StepRate::totalSteps).filter(Objects::nonNull)
                .max(Long::compare).orElse(null);
        return steps.entrySet().stream()
                .min(Comparator.comparingLong((Map.Entry<String, StepRate> e) -> e.getValue().lastStep()))
                .map(slowest -> slowest.getValue().progress(slowest.getKey(), anyTotal));
    }

    private Series seriesFor(String name, String replica) {
        Map<String, Series> replicas = series.get(name);
        Series existing = replicas == null ? null : replicas.get(replica);
        if (existing != null) {
            return existing;
        }
        if (seriesCount >= limits.seriesPerJob()) {
            return null;
        }
        seriesCount++;
        Series created = new Series(limits.pointsPerSeries());
        series.computeIfAbsent(name, n -> new TreeMap<>(Replica.ID_ORDER)).put(replica, created);
        return created;
    }
}

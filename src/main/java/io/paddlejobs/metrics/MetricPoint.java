package io.paddlejobs.metrics;

import java.time.Instant;

/**
 * One value of one metric.
 *
 * @param time when the service read the line from the replica's output
 */
public record MetricPoint(long step, double value, Instant time) {
}

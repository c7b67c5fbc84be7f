package io.paddlejobs.metrics;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.time.Instant;

/**
 * One value of one metric.
 *
 * @param time    when the service read the line from the replica's output
 * @param attempt the job's attempt whose output reported it, numbered from 0 as {@code attempts[].number} is: the
 *                page marks where each attempt's points begin (a point kept before attempts were recorded reads 0)
 */
public record MetricPoint(long step, double value, Instant time, @JsonSetter(nulls = Nulls.AS_EMPTY) int attempt) {
}

package io.paddlejobs.sweeps;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How sweeps are driven ({@code paddlejobs.sweeps.*}).
 *
 * @param lookEvery how often the replica that drives a sweep looks at its trials: how soon a trial starts
 *                  after another ended, and a stopping rule acts after a step was reported
 * @param lease     how long a replica's claim on a sweep holds unless it renews it: how soon another replica
 *                  (or this one, restarted) takes over a sweep whose driver crashed; many times
 *                  {@code look-every}, so that a busy replica does not lose its claims while it drives them
 */
@Validated
@ConfigurationProperties("paddlejobs.sweeps")
public record SweepsProperties(
        @DefaultValue("1s") @NotNull Duration lookEvery,
        @DefaultValue("30s") @NotNull Duration lease) {

    public SweepsProperties {
        if (lookEvery != null && lease != null && lease.compareTo(lookEvery.multipliedBy(3)) < 0) {
            throw new IllegalArgumentException("paddlejobs.sweeps.lease must be at least 3 times look-every");
        }
        if (lookEvery != null && (lookEvery.isNegative() || lookEvery.isZero())) {
            throw new IllegalArgumentException("paddlejobs.sweeps.look-every must be above 0");
        }
    }
}

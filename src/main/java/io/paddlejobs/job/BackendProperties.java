package io.paddlejobs.job;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Which {@link JobBackend} runs the jobs ({@code paddlejobs.backend}). Each backend's configuration
 * is chosen by the same key with {@code @ConditionalOnProperty}, which is read before any bean exists.
 *
 * @param backend where jobs run: {@code local} (processes on this machine), {@code kubernetes}
 *                (pods in a cluster) or {@code slurm} (batch jobs on a Slurm cluster)
 */
@Validated
@ConfigurationProperties("paddlejobs")
public record BackendProperties(@DefaultValue("local") @NotNull Kind backend) {

    /** The backends there are. */
    public enum Kind {
        LOCAL, KUBERNETES, SLURM
    }
}

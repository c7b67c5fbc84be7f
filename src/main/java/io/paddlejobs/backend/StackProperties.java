package io.paddlejobs.backend;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How stack dumps of running jobs are taken ({@code paddlejobs.stacks.*}: {@code POST /jobs/{name}/stacks}, and
 * when a stall is seen).
 *
 * @param pySpy   py-spy ({@code pip install py-spy}) for the local backend: a path, or a name looked for on the
 *                service's PATH; the service runs it on the replicas' host processes, so it needs the right to trace
 *                them (the service's own user owns them, or it runs as root). Slurm runs the nodes' own
 *                ({@code paddlejobs.slurm.py-spy})
 * @param timeout how long one process's dump may take before it is given up (on Slurm: each step that lists a
 *                trainer's processes or dumps one)
 * @param keep    how many dumps are kept per job: the oldest go first
 */
@Validated
@ConfigurationProperties("paddlejobs.stacks")
public record StackProperties(
        @DefaultValue("py-spy") @NotBlank String pySpy,
        @DefaultValue("20s") @NotNull Duration timeout,
        @DefaultValue("20") @Min(1) @Max(1000) int keep) {

    /** The defaults: py-spy on the service's PATH. */
    public static StackProperties defaults() {
        return new StackProperties("py-spy", Duration.ofSeconds(20), 20);
    }
}

package io.paddlejobs.config;

import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.PlanningPolicy;
import io.paddlejobs.planning.RestartBackoff;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What the operator decides about planning: {@code paddlejobs.defaults.*} fill in what a request
 * leaves out, {@code paddlejobs.limits.*} are per-job ceilings. Memory is in Kubernetes quantity
 * syntax ({@code 1Gi}), as in requests. A job that uses GPUs gets {@code gpu-image} unless it names
 * an image, and each GPU trainer at least {@code trainer-cpu-per-gpu} CPUs and
 * {@code trainer-mem-per-gpu} of memory per GPU (0 turns a floor off).
 */
@Validated
@ConfigurationProperties("paddlejobs")
public record PlanningProperties(@Valid @DefaultValue Defaults defaults, @Valid @DefaultValue Limits limits,
                                 @Valid @DefaultValue Restarts restarts) {

    /** {@code paddlejobs.restarts.*}: the wait before a failed job is started again, doubling up to {@code max-backoff}. */
    public record Restarts(
            @DefaultValue("10s") @NotNull Duration backoff,
            @DefaultValue("5m") @NotNull Duration maxBackoff) {

        public RestartBackoff toBackoff() {
            return new RestartBackoff(backoff, maxBackoff);
        }
    }

    public record Defaults(
            @DefaultValue("paddlepaddle/paddle:2.6.1") @NotBlank String image,
            @DefaultValue("1") @Min(1) int numCpus,
            @DefaultValue("1Gi") @NotBlank String memory,
            @DefaultValue("1") @Min(1) int pserverCpu,
            @DefaultValue("1Gi") @NotBlank String pserverMem,
            @DefaultValue("7164") @Min(1024) @Max(65535) int port,
            @DefaultValue("1") @Min(1) int portsNum,
            @DefaultValue("1") @Min(0) int portsNumForSparse,
            @DefaultValue("paddlepaddle/paddle:2.6.1-gpu-cuda12.0-cudnn8.9-trt8.6") @NotBlank String gpuImage,
            @DefaultValue("2") @Min(0) int trainerCpuPerGpu,
            @DefaultValue("8Gi") @NotBlank String trainerMemPerGpu) {
    }

    public record Limits(
            @DefaultValue("64") @Min(1) int maxTrainers,
            @DefaultValue("64") @Min(1) int maxPservers,
            @DefaultValue("16") @Min(0) int maxGpus,
            @DefaultValue("256") @Min(1) int maxCpus,
            @DefaultValue("512Gi") @NotBlank String maxMemory,
            @DefaultValue("10") @Min(0) int maxRestarts) {
    }

    public PlanningPolicy toPolicy() {
        return new PlanningPolicy(
                new PlanningPolicy.Defaults(defaults.image(), defaults.numCpus(),
                        Memory.parse(defaults.memory()), defaults.pserverCpu(), Memory.parse(defaults.pserverMem()),
                        defaults.port(), defaults.portsNum(), defaults.portsNumForSparse()),
                new PlanningPolicy.Limits(limits.maxTrainers(), limits.maxPservers(), limits.maxGpus(),
                        limits.maxCpus(), Memory.parse(limits.maxMemory()), limits.maxRestarts()),
                new PlanningPolicy.Gpu(defaults.gpuImage(),
                        defaults.trainerCpuPerGpu() == 0 ? null : Cpu.cores(defaults.trainerCpuPerGpu()),
                        Memory.parse(defaults.trainerMemPerGpu())));
    }
}

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
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * What the operator decides about planning: {@code paddlejobs.defaults.*} fill in what a request
 * leaves out, {@code paddlejobs.limits.*} are per-job ceilings. Memory is in Kubernetes quantity
 * syntax ({@code 1Gi}), as in requests. A job that uses GPUs gets {@code gpu-image} unless it names
 * an image, and each GPU trainer at least {@code trainer-cpu-per-gpu} CPUs and
 * {@code trainer-mem-per-gpu} of memory per GPU (0 turns a floor off).
 *
 * @param defaults what a request leaves out
 * @param limits   per-job ceilings; a request past one is refused, naming the field
 * @param restarts when a failed job that may restart starts again
 */
@Validated
@ConfigurationProperties("paddlejobs")
public record PlanningProperties(@Valid @DefaultValue Defaults defaults, @Valid @DefaultValue Limits limits,
                                 @Valid @DefaultValue Restarts restarts) {

    /**
     * {@code paddlejobs.restarts.*}: the wait before a failed job is started again, doubling up to {@code max-backoff}.
     *
     * @param backoff    the wait before the first restart
     * @param maxBackoff the longest wait, however often the job restarted
     */
    public record Restarts(
            @DefaultValue("10s") @NotNull Duration backoff,
            @DefaultValue("5m") @NotNull Duration maxBackoff) {

        public RestartBackoff toBackoff() {
            return new RestartBackoff(backoff, maxBackoff);
        }
    }

    /**
     * {@code paddlejobs.defaults.*}: what a request that does not say gets.
     *
     * @param image             the image of a job that names none and uses no GPUs (Kubernetes backend)
     * @param numCpus           CPUs of each trainer
     * @param memory            memory of each trainer
     * @param pserverCpu        CPUs of each pserver
     * @param pserverMem        memory of each pserver
     * @param port              the pservers' first port (at least 1024)
     * @param portsNum          ports per pserver
     * @param portsNumForSparse ports per pserver for sparse parameter updates
     * @param gpuImage          the image of a job that names none and uses GPUs
     * @param trainerCpuPerGpu  the fewest CPUs a GPU trainer gets per GPU (0: no floor)
     * @param trainerMemPerGpu  the least memory a GPU trainer gets per GPU (0: no floor)
     * @param collectiveImage   the image of a collective job that names none and uses no GPUs: Paddle 3, where
     *                          collective training lives (image is the parameter-server jobs' Paddle 2.6)
     * @param collectiveGpuImage the image of a collective job that names none and uses GPUs
     */
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
            @DefaultValue("8Gi") @NotBlank String trainerMemPerGpu,
            @DefaultValue("paddlepaddle/paddle:3.3.1") @NotBlank String collectiveImage,
            @DefaultValue("paddlepaddle/paddle:3.3.1-gpu-cuda12.6-cudnn9.5") @NotBlank String collectiveGpuImage) {
    }

    /**
     * {@code paddlejobs.limits.*}: the most one job may ask for.
     *
     * @param maxTrainers trainers of one job
     * @param maxPservers pservers of one job
     * @param maxGpus     GPUs of one job, all its replicas together
     * @param maxCpus     CPUs of one job, pservers included
     * @param maxMemory   memory of one job, pservers included
     * @param maxRestarts the most {@code max_restarts} a request may ask for
     * @param maxDebugHold the longest {@code debug_hold} a request may ask for: how long a failed attempt may keep its
     *                     replicas, GPUs and slot while its user looks inside; 0 refuses every {@code debug_hold}
     * @param maxPlanSize the replicas' environments together (each replica gets its own copy of
     *                    {@code env}); a larger plan is refused, naming {@code env}
     */
    public record Limits(
            @DefaultValue("64") @Min(1) int maxTrainers,
            @DefaultValue("64") @Min(1) int maxPservers,
            @DefaultValue("16") @Min(0) int maxGpus,
            @DefaultValue("256") @Min(1) int maxCpus,
            @DefaultValue("512Gi") @NotBlank String maxMemory,
            @DefaultValue("10") @Min(0) int maxRestarts,
            @DefaultValue("30m") @NotNull Duration maxDebugHold,
            @DefaultValue("4MB") @NotNull DataSize maxPlanSize) {
    }

    public PlanningPolicy toPolicy() {
        return new PlanningPolicy(
                new PlanningPolicy.Defaults(defaults.image(), defaults.numCpus(),
                        Memory.parse(defaults.memory()), defaults.pserverCpu(), Memory.parse(defaults.pserverMem()),
                        defaults.port(), defaults.portsNum(), defaults.portsNumForSparse()),
                new PlanningPolicy.Limits(limits.maxTrainers(), limits.maxPservers(), limits.maxGpus(),
                        limits.maxCpus(), Memory.parse(limits.maxMemory()), limits.maxRestarts(),
                        limits.maxDebugHold()),
                new PlanningPolicy.Gpu(defaults.gpuImage(),
                        defaults.trainerCpuPerGpu() == 0 ? null : Cpu.cores(defaults.trainerCpuPerGpu()),
                        Memory.parse(defaults.trainerMemPerGpu())),
                new PlanningPolicy.Collective(defaults.collectiveImage(), defaults.collectiveGpuImage()));
    }
}

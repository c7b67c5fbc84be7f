package io.paddlejobs.job;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Which {@link JobBackend} runs the jobs ({@code paddlejobs.backend}), and what every backend does alike
 * (each was once a key per backend, with defaults that differed for no reason). Each backend's
 * configuration is chosen by {@code paddlejobs.backend} with {@code @ConditionalOnProperty}, which is
 * read before any bean exists; each backend's settings record carries these shared values from its
 * configuration on ({@code withShared}), so that its code reads one record.
 *
 * @param backend                 where jobs run: {@code local} (processes on this machine), {@code kubernetes}
 *                                (pods in a cluster) or {@code slurm} (batch jobs on a Slurm cluster)
 * @param stopGracePeriod         how long a replica has between SIGTERM and SIGKILL when it is stopped (a cancel,
 *                                a restart, {@code max_run_time}), so that it can write a last checkpoint: a pod's
 *                                {@code terminationGracePeriodSeconds} on Kubernetes; on Slurm also how long before the
 *                                time limit the replicas get SIGTERM ({@code --signal=TERM@}, at most half the limit)
 * @param rendezvousListenTimeout how long trainer 0 of a collective job may take to listen on its master port
 *                                ({@code PADDLE_MASTER}) before its job fails (local and Slurm backends); the other
 *                                trainers start once it listens, so none of them waits out Paddle's fixed 3 s connect
 *                                retry. A program that prepares its data before {@code init_parallel_env()} listens only then
 * @param minFreeSpace            the free space the service keeps on the disks it writes: below it, submits are refused
 *                                (507) on the local backend's data root, uploads where packages are kept, and the
 *                                embedded history keeps finished jobs without their logs
 * @param allowSharedFiles        security modes {@code token} and {@code kubernetes} where the backend cannot keep
 *                                tenants' files apart (local without a sandbox; Slurm, whose jobs all run as one Unix
 *                                user on one shared directory): each tenant's jobs could read (on Slurm also change) the
 *                                others' files, so the service refuses to start unless this is true
 */
@Validated
@ConfigurationProperties("paddlejobs")
public record BackendProperties(
        @DefaultValue("local") @NotNull Kind backend,
        @DefaultValue(STOP_GRACE_PERIOD) @NotNull Duration stopGracePeriod,
        @DefaultValue(RENDEZVOUS_LISTEN_TIMEOUT) @NotNull Duration rendezvousListenTimeout,
        @DefaultValue(MIN_FREE_SPACE) @NotNull DataSize minFreeSpace,
        @DefaultValue("false") boolean allowSharedFiles) {

    /*
     * The defaults, named so that the backends' records start from the same values until their
     * configuration hands them the configured ones (a record bound in a test has them too).
     */
    public static final String STOP_GRACE_PERIOD = "30s";
    public static final String RENDEZVOUS_LISTEN_TIMEOUT = "30m";
    public static final String MIN_FREE_SPACE = "512MB";

    /** The backends there are. */
    public enum Kind {
        LOCAL, KUBERNETES, SLURM
    }
}

package io.paddlejobs.backend.local;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.backend.local.sandbox.JobUsers;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The local backend's settings ({@code paddlejobs.local.*}).
 *
 * @param dataRoot          job directories ({@code jobs/<namespace>/<job>}: record, logs, package, each
 *                          replica's working directory), each namespace's storage ({@code storage/<namespace>})
 *                          and each job's checkpoints ({@code checkpoints/<namespace>/<job>})
 * @param maxRunningJobs    jobs running at once; the rest wait in order as {@code Pending}
 * @param stopGracePeriod   how long a replica has between SIGTERM and SIGKILL
 * @param firstPort         the first port given to pservers (the range ends at {@code last-port})
 * @param lastPort          the last port given to pservers
 * @param pserverListenTimeout how long a running pserver may take to listen on its first port
 *                          before its job fails (its trainers would wait for it forever)
 * @param rendezvousListenTimeout how long trainer 0 of a collective job may take to listen on its master
 *                          port ({@code PADDLE_MASTER}) before its job fails; the other trainers start
 *                          once it listens, so none of them waits out Paddle's fixed 3 s connect retry. A
 *                          program that prepares its data before {@code init_parallel_env()} listens only then
 * @param maxLogSize        per replica log: past it the oldest output is dropped (a line says how much)
 * @param minFreeSpace      below this much free space in the data root, submits are refused (507)
 * @param sandbox           how replicas are confined: {@code auto} (bubblewrap where it works), {@code bubblewrap}
 *                          (required: the service does not start without it) or {@code off} (plain processes)
 * @param allowSharedFiles  token mode on this backend without a sandbox: every tenant's jobs could read
 *                          the others' files, so the service refuses to start unless this is true
 * @param inheritEnv        names of the service's environment variables replicas get, besides
 *                          {@code PATH}, {@code HOME}, {@code USER}, {@code LOGNAME}, {@code LANG}, {@code LANGUAGE},
 *                          {@code TZ}, {@code TMPDIR} and {@code TERM} (e.g. {@code LD_LIBRARY_PATH}, {@code CUDA_HOME})
 * @param sandboxFirstUid   when the service runs as root, confined replicas run as a user of their namespace's own
 *                          (root without capabilities still owns the host's files and kernel settings, and no
 *                          process limit holds it): the first of the range, each with the group of the same number;
 *                          the range must be no one else's (not a user's, nor in /etc/subuid)
 * @param sandboxUidCount   how many users the range holds: one per namespace that ever ran a job here
 * @param maxProcesses      at most this many processes (threads included) of a replica's user: per namespace when
 *                          the service runs as root with confined replicas, elsewhere counted with the service's own
 *                          threads and every other job's; 0: no limit
 * @param gpus              the GPUs jobs may be given, by index or UUID, or {@code none}; empty: those
 *                          {@code nvidia-smi} lists
 * @param nvidiaSmi         the command that lists the GPUs
 * @param memory            memory jobs may be given in all (512Gi or 512GB: the same); unset: this process's cgroup
 *                          limit, else the machine's
 * @param cpus              CPUs jobs are counted against; unset: this process's cgroup limit, else the machine's
 * @param cpuOversubscription how many CPUs of jobs are counted per CPU of the machine: jobs mostly wait
 *                          on each other, on data and on GPUs, and a trainer asks for a whole CPU it rarely
 *                          fills; with 4 the examples (up to 6 CPUs) run on a 2-core laptop
 * @param images            what stands in for a request's image (or pserver_image) here: {@code IMAGE=DIR} or
 *                          {@code IMAGE-PREFIX*=DIR}, DIR (such as a virtual environment's {@code bin}) first on the
 *                          replicas' PATH, so that an image's {@code python} is that environment's; confined replicas
 *                          see DIR only outside the service user's home; an image without one runs what PATH finds
 */
@Validated
@ConfigurationProperties("paddlejobs.local")
public record LocalProperties(
        @DefaultValue("data") @NotNull Path dataRoot,
        @DefaultValue("4") @Min(1) int maxRunningJobs,
        @DefaultValue("5s") @NotNull Duration stopGracePeriod,
        @DefaultValue("21000") @Min(1024) @Max(65535) int firstPort,
        @DefaultValue("29999") @Min(1024) @Max(65535) int lastPort,
        @DefaultValue("120s") @NotNull Duration pserverListenTimeout,
        @DefaultValue("30m") @NotNull Duration rendezvousListenTimeout,
        @DefaultValue("64MB") @NotNull DataSize maxLogSize,
        @DefaultValue("512MB") @NotNull DataSize minFreeSpace,
        @DefaultValue("auto") @NotNull Sandbox.Mode sandbox,
        @DefaultValue("false") boolean allowSharedFiles,
        @DefaultValue List<String> inheritEnv,
        @DefaultValue("1000000") @Min(1000) int sandboxFirstUid,
        @DefaultValue("100000") @Min(1) int sandboxUidCount,
        @DefaultValue("4096") @Min(0) int maxProcesses,
        @DefaultValue List<String> gpus,
        @DefaultValue("nvidia-smi") @NotNull String nvidiaSmi,
        DataSize memory,
        @Min(1) Integer cpus,
        @DefaultValue("4") @Min(1) @Max(64) int cpuOversubscription,
        @DefaultValue List<String> images) {

    public LocalProperties {
        images = images == null ? List.of() : List.copyOf(images);
        LocalImages.of(images); // at start-up: a bad entry names the setting
    }

    /** Who confined replicas run as when the service runs as root: a user per namespace from the range. */
    JobUsers sandboxUsers() {
        return JobUsers.perNamespace(sandboxFirstUid, sandboxUidCount);
    }

    JobDirectories directories() {
        return JobDirectories.under(dataRoot);
    }
}

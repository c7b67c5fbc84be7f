package io.paddlejobs.backend.local;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.backend.local.sandbox.JobUsers;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The local backend's settings ({@code paddlejobs.local.*}), and the ones it shares with the other
 * backends ({@link BackendProperties}: {@code stopGracePeriod}, {@code rendezvousListenTimeout},
 * {@code minFreeSpace}, {@code allowSharedFiles}), which its configuration hands over with
 * {@link #withShared}; bound alone, the record has their defaults.
 *
 * @param dataRoot          job directories ({@code jobs/<namespace>/<job>}: record, logs, package, each
 *                          replica's working directory), each namespace's storage ({@code storage/<namespace>})
 *                          and each job's checkpoints ({@code checkpoints/<namespace>/<job>})
 * @param maxRunningJobs    jobs running at once; the rest wait in order as {@code Pending}
 * @param firstPort         the first port given to pservers (the range ends at {@code last-port})
 * @param lastPort          the last port given to pservers
 * @param pserverListenTimeout how long a running pserver may take to listen on its first port
 *                          before its job fails (its trainers would wait for it forever)
 * @param maxLogSize        per replica log: past it the oldest output is dropped (a line says how much)
 * @param sandbox           how replicas are confined: {@code auto} (bubblewrap where it works), {@code bubblewrap}
 *                          (required: the service does not start without it) or {@code off} (plain processes)
 * @param inheritEnv        names of the service's environment variables replicas get, besides
 *                          {@code PATH}, {@code HOME}, {@code USER}, {@code LOGNAME}, {@code LANG}, {@code LANGUAGE},
 *                          {@code TZ}, {@code TMPDIR} and {@code TERM} (e.g. {@code LD_LIBRARY_PATH}, {@code CUDA_HOME})
 * @param sandboxFirstUid   when the service runs as root, confined replicas run as a user of their namespace's own
 *                          (root without capabilities still owns the host's files and kernel settings, and no
 *                          process limit holds it): the first of the range, each with the group of the same number;
 *                          the range must be no one else's (not a user's, nor in /etc/subuid)
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
        @NotNull Path dataRoot,
        @Min(1) int maxRunningJobs,
        @NotNull Duration stopGracePeriod,
        @Min(1024) @Max(65535) int firstPort,
        @Min(1024) @Max(65535) int lastPort,
        @NotNull Duration pserverListenTimeout,
        @NotNull Duration rendezvousListenTimeout,
        @NotNull DataSize maxLogSize,
        @NotNull DataSize minFreeSpace,
        @NotNull Sandbox.Mode sandbox,
        boolean allowSharedFiles,
        List<String> inheritEnv,
        @Min(1000) int sandboxFirstUid,
        @Min(0) int maxProcesses,
        List<String> gpus,
        @NotNull String nvidiaSmi,
        DataSize memory,
        @Min(1) Integer cpus,
        @Min(1) @Max(64) int cpuOversubscription,
        List<String> images) {

    /**
     * How many users the range from {@code sandbox-first-uid} holds, one per namespace that ever ran a job here: more
     * namespaces than one machine serves, and a range that still ends far below the 2^32 uids of any kernel.
     */
    static final int SANDBOX_UIDS = 100_000;

    public LocalProperties {
        images = images == null ? List.of() : List.copyOf(images);
        LocalImages.of(images); // at start-up: a bad entry names the setting
    }

    /** The settings as bound from {@code paddlejobs.local.*}, with the shared ones at their defaults. */
    @ConstructorBinding
    public LocalProperties(
            @DefaultValue("data") Path dataRoot,
            @DefaultValue("4") int maxRunningJobs,
            @DefaultValue("21000") int firstPort,
            @DefaultValue("29999") int lastPort,
            @DefaultValue("120s") Duration pserverListenTimeout,
            @DefaultValue("64MB") DataSize maxLogSize,
            @DefaultValue("auto") Sandbox.Mode sandbox,
            @DefaultValue List<String> inheritEnv,
            @DefaultValue("1000000") int sandboxFirstUid,
            @DefaultValue("4096") int maxProcesses,
            @DefaultValue List<String> gpus,
            @DefaultValue("nvidia-smi") String nvidiaSmi,
            DataSize memory,
            Integer cpus,
            @DefaultValue("4") int cpuOversubscription,
            @DefaultValue List<String> images) {
        this(dataRoot, maxRunningJobs, DurationStyle.detectAndParse(BackendProperties.STOP_GRACE_PERIOD), firstPort,
                lastPort, pserverListenTimeout, DurationStyle.detectAndParse(BackendProperties.RENDEZVOUS_LISTEN_TIMEOUT),
                maxLogSize, DataSize.parse(BackendProperties.MIN_FREE_SPACE), sandbox, false, inheritEnv,
                sandboxFirstUid, maxProcesses, gpus, nvidiaSmi, memory, cpus, cpuOversubscription, images);
    }

    /** These settings with the ones every backend shares ({@code paddlejobs.stop-grace-period} and the like). */
    public LocalProperties withShared(BackendProperties shared) {
        return new LocalProperties(dataRoot, maxRunningJobs, shared.stopGracePeriod(), firstPort, lastPort,
                pserverListenTimeout, shared.rendezvousListenTimeout(), maxLogSize, shared.minFreeSpace(), sandbox,
                shared.allowSharedFiles(), inheritEnv, sandboxFirstUid, maxProcesses, gpus, nvidiaSmi, memory, cpus,
                cpuOversubscription, images);
    }

    /** Who confined replicas run as when the service runs as root: a user per namespace from the range. */
    JobUsers sandboxUsers() {
        return JobUsers.perNamespace(sandboxFirstUid, SANDBOX_UIDS);
    }

    JobDirectories directories() {
        return JobDirectories.under(dataRoot);
    }
}

package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.job.BackendProperties;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The Slurm backend's settings ({@code paddlejobs.slurm.*}), and the ones it shares with the other
 * backends ({@link BackendProperties}: {@code stopGracePeriod}, {@code rendezvousListenTimeout},
 * {@code allowSharedFiles}), which its configuration hands over with {@link #withShared}; bound
 * alone, the record has their defaults.
 *
 * @param client       how the service talks to Slurm: {@code cli} (sbatch, scontrol, scancel on this
 *                     host) or {@code rest} (slurmrestd with a JWT)
 * @param sharedDir    a directory every node sees at the same path: job scripts, environments,
 *                     logs, working directories, and the service's own job records
 * @param partition    the partition jobs go to; empty for the cluster's default
 * @param account      the account jobs are charged to; empty for the submitting user's default
 * @param timeLimit    every job's time limit (Slurm counts whole minutes); zero for the partition's
 * @param pollInterval how often the service asks Slurm how its unfinished jobs stand: each time one
 *                     {@code squeue} (or {@code GET /jobs}) per replica of the service, so N replicas ask N
 *                     times as often
 * @param replicaPath  the {@code PATH} replicas run with (their environment is otherwise only the plan's)
 * @param slurmConf    for {@code cli}: the {@code slurm.conf} the commands read; empty for Slurm's own default
 * @param binDir       for {@code cli}: the directory with {@code sbatch}, {@code scontrol} and {@code scancel};
 *                     empty to find them on the service's {@code PATH}
 * @param restUrl      for {@code rest}: slurmrestd's address
 * @param restUser     for {@code rest}: the user jobs are submitted as
 * @param restVersion  for {@code rest}: the data parser to speak ({@code v0.0.38}, {@code v0.0.40} to
 *                     {@code v0.0.45}); empty for the newest that both slurmrestd and the service know
 * @param jwtKey       for {@code rest}: the cluster's HS256 key ({@code AuthAltParameters=jwt_key=}),
 *                     from which the service mints short-lived tokens for {@code restUser}
 * @param accounts     the accounts a namespace's requests may name in {@code account} (namespace: list),
 *                     besides {@code account}; a namespace not listed may name none
 * @param partitions   the partitions a namespace's requests may name in {@code partition}, besides {@code partition}
 * @param qos          the QOS a namespace's requests may name in {@code qos}
 * @param containers   {@code pyxis} where the cluster's Slurm has NVIDIA's Pyxis plugin: a request's
 *                     {@code image} is then each step's {@code --container-image}; {@code none}: replicas
 *                     run the nodes' own software, and an {@code image} is only a warning
 * @param pySpy        py-spy on the nodes, for stack dumps of running trainers (the stacks endpoint, and at a
 *                     stall): a path, or a name looked for on {@code replica-path}; it runs in a step of the job's
 *                     own ({@code srun --overlap}, so the service needs the {@code cli} client) as the job's user,
 *                     whom the nodes must let trace its own processes ({@code kernel.yama.ptrace_scope} 0, or
 *                     py-spy given {@code cap_sys_ptrace}); the service's own {@code paddlejobs.stacks.py-spy} is not used
 */
@Validated
@ConfigurationProperties("paddlejobs.slurm")
public record SlurmProperties(
        @NotNull ClientKind client,
        @NotNull Path sharedDir,
        String partition,
        String account,
        @NotNull Duration timeLimit,
        @NotNull Duration pollInterval,
        @NotNull Duration stopGracePeriod,
        @NotNull Duration rendezvousListenTimeout,
        @NotNull String replicaPath,
        String slurmConf,
        String binDir,
        @NotNull URI restUrl,
        @NotNull String restUser,
        String restVersion,
        Path jwtKey,
        boolean allowSharedFiles,
        Map<String, List<String>> accounts,
        Map<String, List<String>> partitions,
        Map<String, List<String>> qos,
        @NotNull Containers containers,
        @NotNull String pySpy) {

    /**
     * The most of a replica's log one read serves: replicas write their logs themselves, and a sparse or endless
     * one must not cost the service more; far more than a page or a client reads at once (they follow the end).
     */
    static final DataSize MAX_LOG_READ = DataSize.ofMegabytes(64);

    public SlurmProperties {
        accounts = copy(accounts);
        partitions = copy(partitions);
        qos = copy(qos);
    }

    private static Map<String, List<String>> copy(Map<String, List<String>> allowed) {
        Map<String, List<String>> copied = new java.util.HashMap<>();
        if (allowed != null) {
            allowed.forEach((namespace, values) -> copied.put(namespace, values == null ? List.of() : List.copyOf(values)));
        }
        return Map.copyOf(copied);
    }

    /** The settings as bound from {@code paddlejobs.slurm.*}, with the shared ones at their defaults. */
    @ConstructorBinding
    public SlurmProperties(
            @DefaultValue("cli") ClientKind client,
            @DefaultValue("data/slurm") Path sharedDir,
            @DefaultValue("") String partition,
            @DefaultValue("") String account,
            @DefaultValue("0s") Duration timeLimit,
            @DefaultValue("1s") Duration pollInterval,
            @DefaultValue("/usr/local/bin:/usr/bin:/bin") String replicaPath,
            @DefaultValue("") String slurmConf,
            @DefaultValue("") String binDir,
            @DefaultValue("http://127.0.0.1:6820") URI restUrl,
            @DefaultValue("slurm") String restUser,
            @DefaultValue("") String restVersion,
            Path jwtKey,
            @DefaultValue Map<String, List<String>> accounts,
            @DefaultValue Map<String, List<String>> partitions,
            @DefaultValue Map<String, List<String>> qos,
            @DefaultValue("none") Containers containers,
            @DefaultValue("py-spy") String pySpy) {
        this(client, sharedDir, partition, account, timeLimit, pollInterval,
                DurationStyle.detectAndParse(BackendProperties.STOP_GRACE_PERIOD),
                DurationStyle.detectAndParse(BackendProperties.RENDEZVOUS_LISTEN_TIMEOUT), replicaPath, slurmConf, binDir,
                restUrl, restUser, restVersion, jwtKey, false, accounts, partitions, qos, containers, pySpy);
    }

    /** These settings with the ones every backend shares ({@code paddlejobs.stop-grace-period} and the like). */
    public SlurmProperties withShared(BackendProperties shared) {
        return new SlurmProperties(client, sharedDir, partition, account, timeLimit, pollInterval,
                shared.stopGracePeriod(), shared.rendezvousListenTimeout(), replicaPath, slurmConf, binDir, restUrl,
                restUser, restVersion, jwtKey, shared.allowSharedFiles(), accounts, partitions, qos, containers, pySpy);
    }

    /** What runs a request's {@code image} on the nodes. */
    public enum Containers {
        /** Nothing: replicas run the nodes' own software. */
        NONE,
        /** NVIDIA's Pyxis SPANK plugin (with enroot): {@code srun --container-image}. */
        PYXIS
    }

    /** The two ways of talking to Slurm. */
    public enum ClientKind {
        /** The command-line tools; every submit host has them, and their output formats are stable across releases. */
        CLI,
        /** slurmrestd (v0.0.38 of Slurm 22.05, v0.0.40 to v0.0.45 of 24.05 to 26.05): for hosts without the tools or munge. */
        REST
    }

    /** The time limit in Slurm's minutes, rounded up; 0 for none of the service's own. */
    public long timeLimitMinutes() {
        return wholeMinutes(timeLimit);
    }

    /** Slurm's minutes, rounded up; 0 for no time at all. */
    public static long wholeMinutes(Duration time) {
        long seconds = time.toSeconds();
        return seconds <= 0 ? 0 : (seconds + 59) / 60;
    }

    /**
     * Where tenants share the service and their jobs cannot be kept apart (all run as one user on
     * one directory), refuses to go on unless the operator said, with
     * {@code paddlejobs.allow-shared-files=true}, that this is accepted.
     */
    void requireSharedFilesAccepted(String securityMode) {
        if (!securityMode.equals("none") && !allowSharedFiles) {
            throw new IllegalStateException(("paddlejobs.security.mode=%s with the Slurm backend, but every tenant's jobs "
                    + "run as the one Unix user that submits them, on one shared directory: each could read and change "
                    + "the others' files (logs, environments with their secrets, records), and cancel or change the "
                    + "others' Slurm jobs. Set paddlejobs.allow-shared-files=true to accept that.")
                    .formatted(securityMode));
        }
    }

    /**
     * Where tenants share the service, refuses to submit their jobs as root or as Slurm's own user
     * (red team, 7 Dec): every tenant's entry point would run as root on every node, or as the user that
     * reads the cluster's JWT key and so mints a token for root. With {@code client=cli} the submitter is
     * the service's own user, so a service run as root must use {@code client=rest} with an ordinary
     * {@code rest-user}, or run as an ordinary user itself.
     */
    void requireUnprivilegedSubmitter(String securityMode) {
        if (securityMode.equals("none")) {
            return;
        }
        String user = submitter();
        if (user.equals("root") || user.equals("slurm")) {
            throw new IllegalStateException(("paddlejobs.security.mode=%s with the Slurm backend, but its jobs would be "
                    + "submitted as %s (%s): every tenant's entry point would run as %s on every node. Submit as an "
                    + "ordinary user: run the service as one (client=cli), or set paddlejobs.slurm.rest-user to one "
                    + "(client=rest).").formatted(securityMode, user,
                    client == ClientKind.REST ? "paddlejobs.slurm.rest-user" : "the service's own user, client=cli",
                    user.equals("root") ? "root" : "Slurm's own user, which reads the cluster's JWT key and can mint a token for root"));
        }
    }

    /**
     * Where tenants share the service and its own user submits their jobs ({@code client=cli}), refuses to go on when
     * such a job can reach the service ({@code reach}, from {@link ServiceHostReach}; red team, 7 Dec, P2).
     */
    void requireJobsApartFromTheService(String securityMode, Optional<String> reach) {
        if (securityMode.equals("none") || client != ClientKind.CLI || reach.isEmpty()) {
            return;
        }
        throw new IllegalStateException(("paddlejobs.security.mode=%s with the Slurm backend and client=cli: every "
                + "tenant's job runs as this service's own user %s, and %s. Run the service on a host no job runs on, "
                + "with a home directory no node mounts, or set paddlejobs.slurm.client=rest with a "
                + "paddlejobs.slurm.rest-user other than the service's.").formatted(securityMode, submitter(), reach.get()));
    }

    /** The Unix user Slurm runs the jobs as. */
    private String submitter() {
        return client == ClientKind.REST ? restUser : System.getProperty("user.name");
    }

    /**
     * What the start-up says where tenants share this backend: Slurm sees one user, so nothing of Slurm's
     * keeps one tenant's jobs from another's, and the allow-lists and limits bind only what the service submits.
     */
    Optional<String> sharedUserNotice(String securityMode) {
        if (securityMode.equals("none")) {
            return Optional.empty();
        }
        String user = submitter();
        return Optional.of(("Slurm runs every tenant's jobs as the one Slurm user %s: any job can cancel, hold or change "
                + "any other tenant's Slurm jobs, and submit its own to any partition, account or QOS that user may use. "
                + "paddlejobs.slurm.partitions, accounts and qos and the namespace limits are advisory: they bind only "
                + "what is submitted through this service.").formatted(user));
    }

    public JobDirectories directories() {
        return JobDirectories.under(sharedDir);
    }
}

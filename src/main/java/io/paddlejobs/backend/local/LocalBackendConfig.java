package io.paddlejobs.backend.local;

import io.paddlejobs.backend.SecretsProperties;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.backend.local.process.SpawnHealth;
import io.paddlejobs.backend.local.record.JobRecordStore;
import io.paddlejobs.backend.local.sandbox.CgroupLimits;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import io.paddlejobs.backend.local.schedule.MachineCapacity;
import io.paddlejobs.backend.local.schedule.ResourceLedger;
import io.paddlejobs.backend.StackProperties;
import io.paddlejobs.job.CodePackages;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.Tenancy;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.RestartBackoff;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * The embedded default: {@code paddlejobs.backend=local}, or nothing set. Its readiness also says
 * whether it can start processes ({@link SpawnHealth}, see {@code local-backend.properties}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "paddlejobs.backend", havingValue = "local", matchIfMissing = true)
@EnableConfigurationProperties({LocalProperties.class, SecretsProperties.class, StackProperties.class})
@PropertySource("classpath:io/paddlejobs/backend/local/local-backend.properties")
class LocalBackendConfig {

    private static final Logger log = LoggerFactory.getLogger(LocalBackendConfig.class);

    /** Readiness: down while replicas' processes cannot be started for want of processes. */
    @Bean
    SpawnHealth processesHealthIndicator() {
        return new SpawnHealth(Clock.systemUTC());
    }

    @Bean
    JobBackend localJobBackend(LocalProperties local, BackendProperties shared, JobPlanner planner, JsonMapper json,
                               Tenancy tenancy, Environment env, CodePackages packages, RestartBackoff backoff,
                               SpawnHealth spawns, SecretsProperties secrets, StackProperties stacks) {
        LocalProperties properties = local.withShared(shared);
        boolean tenants = tenancy.shared();
        Sandbox sandbox = Sandbox.create(properties.sandbox(), tenants, properties.dataRoot(), hidden(tenancy, env),
                properties.sandboxUsers(), properties.maxProcesses());
        sandbox.requireIsolation(tenants, properties.allowSharedFiles(), tenancy.securityMode());
        var store = new JobRecordStore(properties.directories(), json);
        MachineCapacity machine = MachineCapacity.detect(properties, CgroupLimits.ofThisProcess(), Path.of("/proc/meminfo"));
        log.warn("Local backend: memory and CPU are counted, not enforced: a replica may use more than its plan gives it");
        var resources = ResourceLedger.of(machine, properties);
        var backend = new LocalJobBackend(properties, planner, store, Clock.systemUTC(), sandbox, packages, resources,
                backoff, spawns, secrets.toStore());
        backend.useStacks(stacks);
        long reading = System.nanoTime();
        int recorded = backend.recover();
        log.info("Local backend: job files under {} ({} jobs read back in {} ms), at most {} jobs running at once; "
                        + "capacity {} ({}; CPUs counted {} per CPU); replicas {}; {}",
                properties.dataRoot().toAbsolutePath().normalize(), recorded,
                (System.nanoTime() - reading) / 1_000_000, properties.maxRunningJobs(), machine.summary(),
                machine.origin(), properties.cpuOversubscription(),
                sandbox.confinesFiles() ? "sandboxed (bubblewrap: own PID namespace, no capabilities, only their "
                        + "job's files writable, " + (sandbox.users().perNamespace()
                        ? "as a uid per namespace from " + properties.sandboxFirstUid() + ")" : "own user namespace)")
                        : sandbox.usesBubblewrap() ? "in their own PID namespace (bubblewrap), sharing this user's files"
                        : "as plain processes of this user, sharing its files",
                sandbox.processLimit());
        return backend;
    }

    /**
     * A normal stop ends the running jobs while the rest of the service still runs: after the web server and the
     * sweeps' driver stopped (higher phases stop first), before the history's recorder is closed, so that the
     * history holds how they ended (failed, ServiceStopped) and another replica on the same database, which serves
     * them from it, does not wait on them. The backend's close then finds none running.
     */
    @Bean
    SmartLifecycle localJobsStop(JobBackend backend) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                running = true;
            }

            @Override
            public void stop() {
                if (backend instanceof LocalJobBackend local) {
                    local.stopJobs();
                }
                running = false;
            }

            @Override
            public boolean isRunning() {
                return running;
            }

            /** Ended jobs do not come back: only the context's close stops them, never a pause (a cached test context's). */
            @Override
            public boolean isPauseable() {
                return false;
            }

            @Override
            public int getPhase() {
                return SmartLifecycle.DEFAULT_PHASE - 4096; // below the web server's (DEFAULT_PHASE - 2048)
            }
        };
    }

    /**
     * What of the service a confined replica must not see besides the data root: the token file,
     * and the service user's home (credentials, keys), its working directory and its log directory
     * (every tenant's audit lines). Where the logs go is Spring Boot's {@code logging.file.*}, read as it reads them.
     */
    private static Sandbox.Hidden hidden(Tenancy tenancy, Environment env) {
        List<Path> files = new ArrayList<>(tenancy.secretFiles());
        List<Path> directories = new ArrayList<>(List.of(Path.of(System.getProperty("user.home")),
                Path.of(System.getProperty("user.dir"))));
        Optional.ofNullable(env.getProperty("logging.file.path")).map(Path::of).ifPresent(directories::add);
        Optional.ofNullable(env.getProperty("logging.file.name")).map(name -> Path.of(name).toAbsolutePath().getParent())
                .ifPresent(directories::add);
        return new Sandbox.Hidden(files, directories);
    }
}

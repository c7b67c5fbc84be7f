package io.paddlejobs.backend.local;

import io.paddlejobs.backend.SecretStore;
import io.paddlejobs.backend.local.process.SpawnHealth;
import io.paddlejobs.backend.local.record.JobRecordStore;
import io.paddlejobs.backend.local.sandbox.CgroupLimits;
import io.paddlejobs.backend.local.sandbox.JobUsers;
import io.paddlejobs.backend.local.sandbox.Sandbox;
import io.paddlejobs.backend.local.schedule.MachineCapacity;
import io.paddlejobs.backend.local.schedule.ResourceLedger;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.job.CodePackages;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.ReplicaState;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** A local backend on a temporary data root, with helpers to submit and wait; real processes throughout. */
public final class LocalBackendFixture implements AutoCloseable {

    public static final Duration DEADLINE = Duration.ofSeconds(30);
    public static final String NAMESPACE = "default";

    final Path dataRoot;
    final LocalProperties properties;
    final JobPlanner planner;
    final Sandbox sandbox;
    public final LocalJobBackend backend;

    public LocalBackendFixture(Path dataRoot, int maxRunningJobs) {
        this(dataRoot, maxRunningJobs, Duration.ofSeconds(120));
    }

    public LocalBackendFixture(Path dataRoot, int maxRunningJobs, Duration pserverListenTimeout) {
        this(properties(dataRoot, "max-running-jobs", maxRunningJobs, "pserver-listen-timeout", pserverListenTimeout), false);
    }

    /** @param tenants whether replicas are confined as in token mode */
    public LocalBackendFixture(LocalProperties properties, boolean tenants) {
        this(properties, tenants, Sandbox.Hidden.NOTHING);
    }

    /** @param hidden what of the service confined replicas must not see besides the data root */
    public LocalBackendFixture(LocalProperties properties, boolean tenants, Sandbox.Hidden hidden) {
        this(properties, tenants, hidden, new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)));
    }

    /** @param backoff the wait before a failed job starts again (short in tests) */
    public LocalBackendFixture(Path dataRoot, RestartBackoff backoff) {
        this(properties(dataRoot), false, Sandbox.Hidden.NOTHING, backoff);
    }

    /** These settings, unconfined, with this backoff between attempts. */
    public LocalBackendFixture(LocalProperties properties, RestartBackoff backoff) {
        this(properties, false, Sandbox.Hidden.NOTHING, backoff, Clock.systemUTC());
    }

    /** As {@link #LocalBackendFixture(LocalProperties, RestartBackoff)}, the backend reading this clock. */
    public LocalBackendFixture(LocalProperties properties, RestartBackoff backoff, Clock clock) {
        this(properties, false, Sandbox.Hidden.NOTHING, backoff, clock);
    }

    /** Confined as where tenants share the machine (when {@code tenants}), with this backoff and clock. */
    public LocalBackendFixture(LocalProperties properties, boolean tenants, RestartBackoff backoff, Clock clock) {
        this(properties, tenants, Sandbox.Hidden.NOTHING, backoff, clock);
    }

    private LocalBackendFixture(LocalProperties properties, boolean tenants, Sandbox.Hidden hidden,
                                RestartBackoff backoff) {
        this(properties, tenants, hidden, backoff, Clock.systemUTC());
    }

    /**
     * @param users    who confined replicas run as when the service runs as root ({@link JobUsers#serviceUser()}:
     *                 as an unprivileged service's would, in a user namespace mapped to the service's user)
     * @param packages the code packages jobs may name
     */
    public LocalBackendFixture(LocalProperties properties, boolean tenants, JobUsers users, CodePackages packages) {
        this(properties, tenants, Sandbox.Hidden.NOTHING, new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)),
                Clock.systemUTC(), users, packages, SecretStore.NONE);
    }

    /** @param secrets the operator's store of the secrets jobs may name ({@code env_from_secrets}) */
    public LocalBackendFixture(LocalProperties properties, boolean tenants, SecretStore secrets) {
        this(properties, tenants, Sandbox.Hidden.NOTHING, new RestartBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5)),
                Clock.systemUTC(), properties.sandboxUsers(), NoCodePackages.INSTANCE, secrets);
    }

    private LocalBackendFixture(LocalProperties properties, boolean tenants, Sandbox.Hidden hidden,
                                RestartBackoff backoff, Clock clock) {
        this(properties, tenants, hidden, backoff, clock, properties.sandboxUsers(), NoCodePackages.INSTANCE,
                SecretStore.NONE);
    }

    private LocalBackendFixture(LocalProperties properties, boolean tenants, Sandbox.Hidden hidden,
                                RestartBackoff backoff, Clock clock, JobUsers users, CodePackages packages,
                                SecretStore secrets) {
        this.dataRoot = properties.dataRoot();
        this.properties = properties;
        this.planner = new JobPlanner(Settings.planningPolicyWithoutGpuRules());
        searchableByAll(dataRoot);
        this.sandbox = Sandbox.create(properties.sandbox(), tenants, properties.dataRoot(), hidden, users,
                properties.maxProcesses());
        this.backend = new LocalJobBackend(properties, planner, store(), clock, sandbox, packages,
                ResourceLedger.of(MachineCapacity.detect(properties, CgroupLimits.ofThisProcess(),
                        Path.of("/proc/meminfo")), properties), backoff, new SpawnHealth(clock), secrets);
        backend.recover();
    }

    /**
     * The shipped local settings on this data root as tests run them, with these keys changed
     * ({@link Settings#of}): replicas stopped within 2 s, a free-space floor of 1 MB (a test machine's
     * disk holds much else), and no GPUs rather than whatever {@code nvidia-smi} finds here.
     */
    public static LocalProperties properties(Path dataRoot, Object... keysAndValues) {
        List<Object> own = new ArrayList<>(List.of("data-root", dataRoot, "gpus", "none"));
        List<Object> shared = new ArrayList<>(List.of("stop-grace-period", "2s", "min-free-space", "1MB"));
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            (SHARED.contains(keysAndValues[i]) ? shared : own).addAll(List.of(keysAndValues[i], keysAndValues[i + 1]));
        }
        return Settings.of(LocalProperties.class, own.toArray())
                .withShared(Settings.of(BackendProperties.class, shared.toArray()));
    }

    /** The keys every backend shares ({@code paddlejobs.stop-grace-period} and the like), which tests name alike. */
    private static final Set<Object> SHARED = Set.of("stop-grace-period", "rendezvous-listen-timeout", "min-free-space",
            "allow-shared-files");

    /**
     * The first of ten users no one else on the machine uses, for a test that counts processes per
     * user (the kernel counts them across the whole machine, other tests' included).
     */
    static int unusedUids() {
        return 3_000_000 + ThreadLocalRandom.current().nextInt(1_000_000) * 10;
    }

    /**
     * A temporary directory is private to its owner; a data root the service makes is not (umask
     * 022), and the user confined replicas run as under root must be able to search it.
     */
    private static void searchableByAll(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JobRecordStore store() {
        return new JobRecordStore(properties.directories(), json());
    }

    static JsonMapper json() {
        return JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new PlanningJsonModule())
                .build();
    }

    static JobRequest request(String name, String entryPoint, int pservers, int trainers) {
        return JobRequests.named(name, entryPoint).trainers(trainers).pservers(pservers).build();
    }

    public JobPlan plan(JobRequest request) {
        return planner.plan(request, NAMESPACE, backend.site());
    }

    public Job submit(String name, String entryPoint, int pservers, int trainers) {
        return backend.submit(plan(request(name, entryPoint, pservers, trainers)));
    }

    public Job job(String name) {
        return backend.find(new JobKey(NAMESPACE, name)).orElseThrow();
    }

    /** Waits for this phase; a job that ends in another one fails at once, with the status it ended with. */
    public Job awaitPhase(String name, JobPhase phase) {
        await().atMost(DEADLINE).until(() -> {
            JobPhase now = job(name).status().phase();
            return now == phase || now.isFinished();
        });
        Job job = job(name);
        assertThat(job.status().phase()).as(() -> "status of job %s: %s%s".formatted(name, job.status(), failedLogs(job)))
                .isEqualTo(phase);
        return job;
    }

    /** The end of each failed replica's log, which says why it failed. */
    private String failedLogs(Job job) {
        StringBuilder logs = new StringBuilder();
        job.status().replicas().stream().filter(r -> r.state() == ReplicaState.FAILED).forEach(r -> {
            try {
                String text = log(job.plan().name(), r.role(), r.index());
                logs.append("\n").append(r.id()).append("'s log ends: ").append(text.substring(Math.max(0, text.length() - 600)));
            } catch (IOException e) {
                logs.append("\n").append(r.id()).append("'s log cannot be read: ").append(e.getMessage());
            }
        });
        return logs.toString();
    }

    /** Submits a one-trainer job in the namespace, an earlier one of its name deleted first. */
    JobKey submitIn(String namespace, String name, String entryPoint) {
        JobKey key = new JobKey(namespace, name);
        backend.delete(key);
        backend.submit(planner.plan(request(name, entryPoint, 0, 1), namespace, backend.site()));
        return key;
    }

    /** As {@link #submitIn}, then waits for the job's end and returns its trainer's log; it must have succeeded. */
    String runToEnd(String namespace, String name, String entryPoint) throws IOException {
        JobKey key = submitIn(namespace, name, entryPoint);
        await().atMost(DEADLINE).until(() -> backend.find(key).orElseThrow().status().phase().isFinished());
        String log = log(key);
        assertThat(backend.find(key).orElseThrow().status().phase()).as(log).isEqualTo(JobPhase.SUCCEEDED);
        return log;
    }

    /** The log of the job's first trainer. */
    public String log(JobKey key) throws IOException {
        var out = new ByteArrayOutputStream();
        backend.writeLogs(key, Role.TRAINER, 0, null, false, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    public String log(String name, Role role, int index) throws IOException {
        var out = new ByteArrayOutputStream();
        backend.writeLogs(new JobKey(NAMESPACE, name), role, index, null, false, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A replica's pid, as its job record on disk has it. */
    long pidOf(String name, String replicaId) {
        return store().loadAll().stream().map(JobRecordStore.Stored::record)
                .filter(r -> r.request().name().equals(name)).findFirst()
                .map(r -> r.processes().get(replicaId).pid()).orElseThrow();
    }

    /** Whether any process on this machine has {@code marker} in its command line. */
    public static boolean anyProcessWith(String marker) {
        return ProcessHandle.allProcesses()
                .anyMatch(p -> p.info().commandLine().map(line -> line.contains(marker)).orElse(false));
    }

    @Override
    public void close() {
        backend.close();
    }
}

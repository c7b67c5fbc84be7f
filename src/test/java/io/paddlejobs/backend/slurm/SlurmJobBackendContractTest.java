package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.SlurmClient;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.job.BackendProperties;
import io.paddlejobs.job.JobBackend;
import io.paddlejobs.job.JobBackendContract;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.RestartBackoff;
import io.paddlejobs.testing.Settings;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * The port's contract on the Slurm backend, with the default client (the command-line tools) on
 * the real test cluster: each job one heterogeneous Slurm job, each replica one task. One backend
 * (and shared directory) for the class, as the service has one.
 */
@Tag("slurm")
@ExtendWith(SlurmCluster.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class SlurmJobBackendContractTest extends JobBackendContract {

    /** Slurm's states of a job that still holds (or waits for) its nodes. */
    private static final Set<String> UNFINISHED = Set.of("PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED");

    private SlurmJobBackend backend;
    private JobPlanner planner;

    /** The settings besides the shipped defaults; {@code paddlejobs.slurm.client} picks the client. */
    Map<String, String> settings(Path sharedDir) {
        return Map.of(
                "paddlejobs.slurm.shared-dir", sharedDir.toString(),
                "paddlejobs.slurm.slurm-conf", SlurmCluster.current().slurmConf(),
                "paddlejobs.slurm.bin-dir", SlurmCluster.current().binDir(),
                "paddlejobs.slurm.poll-interval", "250ms");
    }

    @BeforeAll
    void start(@TempDir Path sharedDir) {
        backend = backend(settings(sharedDir), BACKOFF);
        planner = new JobPlanner(Settings.planningPolicy());
    }

    /** A started backend with these settings (besides the shipped defaults) on the test cluster, as the service makes it. */
    public static SlurmJobBackend backend(Map<String, String> settings, RestartBackoff backoff) {
        // Bound as the service binds them: its own keys, and those every backend shares (paddlejobs.stop-grace-period).
        Binder binder = new Binder(new MapConfigurationPropertySource(settings));
        SlurmProperties properties = binder.bindOrCreate("paddlejobs.slurm", SlurmProperties.class)
                .withShared(binder.bindOrCreate("paddlejobs", BackendProperties.class));
        JsonMapper json = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new PlanningJsonModule()).build();
        SlurmJobBackend started = new SlurmJobBackend(properties, SlurmClient.of(properties),
                new SlurmRecords(properties.directories(), json), Clock.systemUTC(), backoff);
        started.start();
        return started;
    }

    @AfterAll
    void stop() {
        if (backend != null) {
            backend.close();
        }
    }

    @Override
    protected JobBackend backend() {
        return backend;
    }

    @Override
    protected String namespace() {
        return "contract";
    }

    @Override
    protected JobPlan plan(String name, Act act) {
        String run = switch (act.kind()) {
            case KEEPS_RUNNING -> "sleep 600";
            case TRAINER_EXITS -> "if [ \"$TRAINING_ROLE\" = TRAINER ]; then exit " + act.n() + "; fi; sleep 600";
            case TRAINER_PRINTS -> "if [ \"$TRAINING_ROLE\" = TRAINER ]; then for i in $(seq " + act.n()
                    + "); do echo line $i; done; exit 0; fi; sleep 600";
            case TRAINER_FAILS_THE_FIRST_ATTEMPT -> "if [ \"$TRAINING_ROLE\" = TRAINER ]; then"
                    + " [ \"$PADDLE_JOB_RESTART_COUNT\" = 0 ] && exit 1; exit 0; fi; sleep 600";
        };
        JobRequest request = JobRequests.named(name, run).memory("256Mi").trainers(1).pservers(1).build();
        return planner.plan(request, namespace(), backend.site());
    }

    @Override
    protected boolean anyReplicaRunning(JobKey key) {
        String states = SlurmCluster.current().command("squeue", "-h", "-t", "all",
                "-n", "paddlejobs." + key.namespace() + "." + key.name(), "-o", "%T");
        return states.lines().map(String::strip).anyMatch(UNFINISHED::contains);
    }
}

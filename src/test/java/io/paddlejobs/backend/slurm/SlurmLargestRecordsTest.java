package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.script.PlacementTest;
import io.paddlejobs.backend.slurm.script.ReplicaMarks;
import io.paddlejobs.backend.slurm.state.SlurmJob;
import io.paddlejobs.backend.slurm.state.SlurmRecords;
import io.paddlejobs.backend.slurm.state.SlurmStatusMapper;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * Red team, 7 Dec, C2: the first round's restart crash loop (H5), on the Slurm backend. A Slurm
 * record keeps its job's whole plan, and a job that may restart keeps it twice (as placed, and as
 * submitted); each replica's environment carries the request's {@code env}, so the largest job a
 * tenant may submit (64 + 64 replicas, as much env as a plan may hold) writes a record of some 7 MB.
 * Read back at start-up, every replica got its own copy of every value: about 7 MB of heap per
 * record, and a few dozen such jobs kept a service with a 512 MB heap from starting, again at every
 * start. Read back now, equal values are one string, shared by the replicas and the two plans.
 */
@Tag("redteam")
class SlurmLargestRecordsTest {

    private static final JsonMapper JSON = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .addModule(new PlanningJsonModule()).build();
    private static final int RECORDS = 4;

    @TempDir
    Path sharedDir;

    @Test
    void recordsOfTheLargestJobsHoldTheirEnvironmentOnceWhenReadBack() throws Exception {
        SlurmRecords records = new SlurmRecords(JobDirectories.under(sharedDir), JSON);
        for (int n = 0; n < RECORDS; n++) {
            records.save(largest("amp-" + n));
        }
        long recordBytes = Files.size(sharedDir.resolve("jobs/default/amp-0/job.json"));
        assertThat(recordBytes).as("the record keeps the plan twice, each replica with the request's env")
                .isGreaterThan(5_000_000);

        List<SlurmJob> loaded = records.loadAll();

        // Held once: every replica of both plans has the same string, not a copy of 28 KB per replica and plan.
        // (Live heap is no measure here: Jackson's soft buffers come and go around the read.)
        assertThat(loaded).hasSize(RECORDS).allSatisfy(job -> {
            String first = job.plan().replicas().get(0).env().get("BIG_0");
            assertThat(job.plan().replicas()).hasSize(128)
                    .allSatisfy(replica -> assertThat(replica.env().get("BIG_0")).isSameAs(first));
            assertThat(job.unplaced().replicas())
                    .allSatisfy(replica -> assertThat(replica.env().get("BIG_0")).isSameAs(first));
        });
    }

    /** 64 pservers and 64 trainers, seven variables of 4,000 characters, restartable: both plans are kept. */
    private static SlurmJob largest(String name) {
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < 7; i++) {
            env.put("BIG_" + i, Integer.toString(i).repeat(4000));
        }
        JobRequest request = JobRequests.named(name, "python3 train.py").pservers(64).trainers(64).numCpus(1)
                .maxRestarts(3).env(env).build();
        JobPlan plan = new JobPlanner(Settings.planningPolicyWithoutGpuRules())
                .plan(request, "default", new SlurmSite(PlacementTest.PROPERTIES));
        Instant now = Instant.parse("2026-12-07T02:00:00Z");
        var tracked = new SlurmStatusMapper.Tracked(plan, now, false, List.of(), ReplicaMarks.NONE);
        return new SlurmJob(plan, 7, now, false, false, SlurmStatusMapper.map(tracked), plan, null);
    }

}

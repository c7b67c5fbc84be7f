package io.paddlejobs.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobHistory;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.JobPlanner;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.ServiceProcess;
import io.paddlejobs.testing.Settings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Red team, 7 Dec, C1: one {@code GET /jobs} of a namespace whose archived jobs (on Kubernetes, every
 * job past {@code ttl-seconds-after-finished}) are the largest a tenant may submit read every row's plan
 * at once, each replica's environment written out (some 3.6 MB of JSON a job), and parsed each into a
 * plan of its own copies: a page of 30 such jobs asked for some 200 MB, and the service's heap ran out.
 * The list now reads the plans apart from the rows, one at a time, each held with its equal values shared.
 */
@Tag("redteam")
class ArchivedListMemoryTest {

    private static final int JOBS = 30;
    private static final Instant FINISHED = Instant.parse("2026-12-07T01:00:00Z");

    @TempDir
    Path dataRoot;

    @Test
    void theLargestArchivedJobsAreHeldCompactlyWhenListed() throws Exception {
        int jobs = 3;
        try (var database = HistoryStores.embedded(dataRoot.resolve("history"))) {
            JdbcJobHistory history = HistoryStores.history(database, Clock.systemUTC());
            fill(history, jobs, 64);

            JobHistory.Batch batch = history.listed(new JobQuery("default", null, Map.of(), 50, null), null, 50);

            // Held once: every replica's value is the same string, not a copy of 28 KB per replica (4.4 MB a job).
            // (Live heap is no measure here: Jackson's and H2's soft buffers come and go around the list.)
            assertThat(batch.jobs()).hasSize(jobs).allSatisfy(job -> {
                var replicas = job.plan().replicas();
                assertThat(replicas).hasSize(128);
                assertThat(replicas).allSatisfy(replica ->
                        assertThat(replica.env().get("BIG_0")).isSameAs(replicas.get(0).env().get("BIG_0")));
            });
        }
    }

    /**
     * The attack as it was made: the service in a JVM of its own with a small heap, on a history the test
     * filled beforehand, as a replica finds it after the cluster removed the jobs. A minute or more on a
     * busy machine (30 plans of 3.6 MB written, a JVM started), so a benchmark; the check above is its quick form.
     */
    @Test
    @Tag("benchmark")
    void aListOfTheLargestArchivedJobsFitsInASmallHeap() throws Exception {
        // As the service opens its embedded store (Spring Boot's user for an embedded database).
        try (var database = HistoryStores.pooled("jdbc:h2:file:" + dataRoot.resolve("history/jobs"), "sa", "")) {
            HistoryStores.migrate(database);
            fill(HistoryStores.history(database, Clock.systemUTC()), JOBS, 64);
        }

        try (var service = ServiceProcess.startWithJvmOptions(List.of("-Xmx160m"), dataRoot)) {
            ServiceClient client = new ServiceClient(service.port());
            var page = client.get("/jobs?limit=50");

            assertThat(page.statusCode()).as("%s\n%s", page.body(), service.output()).isEqualTo(200);
            JsonNode items = HistoryStores.JSON.readTree(page.body()).path("items");
            assertThat(items.size()).isEqualTo(JOBS);
            assertThat(items.get(0).path("trainers").asInt()).isEqualTo(64);
            assertThat(client.get("/jobs/amp-0").statusCode()).isEqualTo(200);
            assertThat(client.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
            assertThat(service.output()).doesNotContain("OutOfMemoryError");
        }
    }

    private static void fill(JdbcJobHistory history, int jobs, int perRole) {
        for (int n = 0; n < jobs; n++) {
            history.record(HistoryStores.job(large("amp-" + n, perRole), JobPhase.SUCCEEDED, "Completed",
                    FINISHED.minusSeconds(60 + n), FINISHED));
        }
    }

    /** {@code perRole} pservers and trainers (64 each: the largest, a plan of some 3.6 MB of JSON), seven variables of 4,000 characters. */
    private static JobPlan large(String name, int perRole) {
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < 7; i++) {
            env.put("BIG_" + i, Integer.toString(i).repeat(4000));
        }
        return new JobPlanner(Settings.planningPolicyWithoutGpuRules()).plan(JobRequests.named(name, "python train.py")
                .pservers(perRole).trainers(perRole).numCpus(1).env(env).build(), "default", HistoryStores.LOOPBACK);
    }
}

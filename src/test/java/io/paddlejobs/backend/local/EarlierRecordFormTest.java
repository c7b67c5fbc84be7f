package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.record.JobRecord;
import io.paddlejobs.backend.local.record.JobRecordStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.backend.JobDirectories;
import io.paddlejobs.config.PlanningJsonModule;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.job.RoleCounts;
import io.paddlejobs.planning.JobPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Records written by earlier versions, which held the whole plan, are still read back, whatever the mapper's strictness. */
class EarlierRecordFormTest {

    @TempDir
    Path dataRoot;

    @ParameterizedTest(name = "fail on unknown properties: {0}")
    @ValueSource(booleans = {false, true})
    void recordHoldingTheWholePlanIsReadAsItsRequest(boolean strict) {
        JsonMapper json = JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new PlanningJsonModule())
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict)
                .build();
        JobRecordStore store = new JobRecordStore(JobDirectories.under(dataRoot), json);
        JobPlan plan;
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            plan = local.plan(LocalBackendFixture.request("old", "true", 1, 2));
        }
        Instant now = Instant.now();
        store.save(new JobRecord(plan.spec(), plan.namespace(), null, new JobStatus(JobPhase.SUCCEEDED, "Completed",
                "every trainer exited 0", now, now, now, null, RoleCounts.of(1, List.of()), RoleCounts.of(2, List.of()),
                List.of()), Map.of()));
        Path file = dataRoot.resolve("jobs/default/old/job.json");
        ObjectNode record = (ObjectNode) json.readTree(file.toFile());
        ObjectNode earlierPlan = json.createObjectNode();
        earlierPlan.set("spec", record.remove("request"));
        earlierPlan.put("namespace", record.remove("namespace").asString());
        earlierPlan.put("name", "old");
        record.remove("port");
        record.set("plan", earlierPlan);
        json.writeValue(file.toFile(), record);

        List<JobRecordStore.Stored> read = store.loadAll();

        assertThat(read).singleElement().satisfies(stored -> {
            assertThat(stored.record().request()).isEqualTo(plan.spec());
            assertThat(stored.record().namespace()).isEqualTo("default");
            assertThat(stored.record().status().phase()).isEqualTo(JobPhase.SUCCEEDED);
        });
        assertThat(Files.exists(file)).as("not moved aside").isTrue();
    }
}

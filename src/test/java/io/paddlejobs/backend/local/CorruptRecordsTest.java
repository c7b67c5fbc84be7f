package io.paddlejobs.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** No record, however broken or wherever planted, stops the backend from starting; the others are served. */
@Tag("redteam") // Red team round 1, H4: a planted or broken record stops the start.
class CorruptRecordsTest {

    @TempDir
    Path dataRoot;

    @ParameterizedTest
    @ValueSource(strings = {
        "{}", "null", "[]", "42", "\"text\"", "{\"request\": null}",
        "{\"request\": {\"name\": \"victim\", \"entry_point\": \"true\"}, \"namespace\": \"default\"}",
        "{\"request\": {\"name\": \"victim\", \"entry_point\": \"true\"}, \"namespace\": \"default\", \"status\": {}}",
        "{\"request\": {\"name\": \"victim\", \"entry_point\": \"true\"}, \"namespace\": \"default\", "
                + "\"status\": {\"phase\": null, \"created_at\": \"2026-01-01T00:00:00Z\", \"replicas\": []}}",
        "{\"request\": {\"name\": \"victim\", \"entry_point\": \"true\"}, \"namespace\": \"default\", "
                + "\"status\": {\"phase\": \"Running\", \"replicas\": []}}",
        "{\"request\": {\"name\": \"victim\", \"entry_point\": \"true\"}, \"namespace\": \"default\", "
                + "\"status\": {\"phase\": \"Running\", \"created_at\": \"2026-01-01T00:00:00Z\", \"replicas\": [null]}}",
        "{\"request\": {\"name\": \"victim\", \"entry_point\": \"true\", \"trainers\": 99999}, \"namespace\": \"default\", "
                + "\"status\": {\"phase\": \"Pending\", \"created_at\": \"2026-01-01T00:00:00Z\", \"replicas\": []}}",
        "{\"plan\": {}, \"status\": null}",
        "{\"request\": \"x\"}", "{\"status\": {\"phase\": \"Bogus\"}}", "garbage", ""})
    void aBrokenRecordIsMovedAsideAndTheOtherJobsAreServed(String content) throws IOException {
        try (var before = new LocalBackendFixture(dataRoot, 4)) {
            before.submit("good", "true", 1, 1);
            before.submit("victim", "true", 1, 1);
            before.awaitPhase("good", JobPhase.SUCCEEDED);
            before.awaitPhase("victim", JobPhase.SUCCEEDED);
        }
        Files.writeString(dataRoot.resolve("jobs/default/victim/job.json"), content);

        try (var after = new LocalBackendFixture(dataRoot, 4)) {
            assertThat(after.job("good").status().phase()).isEqualTo(JobPhase.SUCCEEDED);
            assertThat(after.backend.find(new JobKey("default", "victim"))).isEmpty();
            assertThat(Files.exists(dataRoot.resolve("jobs/default/victim"))).as("moved aside").isFalse();
            assertThat(quarantined()).anyMatch(name -> name.startsWith("default_victim-"));
        }
    }

    @Test
    void aRecordPlantedUnderAnotherNameOrADirectoryNamedLikeARecordIsMovedAside() throws IOException {
        try (var before = new LocalBackendFixture(dataRoot, 4)) {
            before.submit("good", "true", 1, 1);
            before.awaitPhase("good", JobPhase.SUCCEEDED);
        }
        Path planted = dataRoot.resolve("jobs/default/zz");
        Files.createDirectories(planted);
        Files.copy(dataRoot.resolve("jobs/default/good/job.json"), planted.resolve("job.json"));
        Files.createDirectories(dataRoot.resolve("jobs/team-b/dir/job.json"));

        try (var after = new LocalBackendFixture(dataRoot, 4)) {
            assertThat(after.job("good").status().phase()).isEqualTo(JobPhase.SUCCEEDED);
            assertThat(after.backend.list("default")).hasSize(1);
            assertThat(quarantined()).anyMatch(name -> name.startsWith("default_zz-"))
                    .anyMatch(name -> name.startsWith("team-b_dir-"));
        }
    }

    @Test
    void aNameFreedByAMovedAsideRecordStartsWithAnEmptyLog() throws IOException {
        try (var before = new LocalBackendFixture(dataRoot, 4)) {
            before.submit("reused", "echo OLD-JOB-OUTPUT", 1, 1);
            before.awaitPhase("reused", JobPhase.SUCCEEDED);
        }
        Files.writeString(dataRoot.resolve("jobs/default/reused/job.json"), "{}");

        try (var after = new LocalBackendFixture(dataRoot, 4)) {
            after.submit("reused", "echo NEW-JOB-OUTPUT", 1, 1);
            after.awaitPhase("reused", JobPhase.SUCCEEDED);

            assertThat(after.log("reused", io.paddlejobs.planning.Role.TRAINER, 0)).isEqualTo("NEW-JOB-OUTPUT\n");
        }
    }

    private Stream<String> quarantined() throws IOException {
        return Files.list(dataRoot.resolve("quarantine")).map(path -> path.getFileName().toString()).toList().stream();
    }
}

package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The service killed and started again on its data root: what its backend still has and what only
 * its history has are listed together, each job once, and the history takes the jobs' changes since
 * (the local backend ends a job the restart stopped) without repeating what it had.
 */
class HistoryRestartTest {

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void aRestartedServiceListsLiveAndArchivedJobsOnceAndRecordsWhatChangedSince() throws Exception {
        Path root = dir.resolve("data");
        ServiceProcess first = ServiceProcess.start(root);
        try {
            ServiceClient service = new ServiceClient(first.port());
            service.submit(LocalJobsApiTest.body("kept", "echo kept"));
            service.submit(LocalJobsApiTest.body("forgotten", "echo forgotten"));
            service.submit(LocalJobsApiTest.body("across", "sleep 600"));
            service.submit(LocalJobsApiTest.body("progressed",
                    "echo 'PADDLEJOBS_METRICS {\\\"step\\\": 4, \\\"total_steps\\\": 4, \\\"loss\\\": 0.5}'"));
            service.awaitPhase("kept", "Succeeded", DEADLINE);
            service.awaitPhase("progressed", "Succeeded", DEADLINE);
            await().atMost(DEADLINE).until(() -> progressListed(service, "progressed"));
            service.awaitPhase("forgotten", "Succeeded", DEADLINE);
            service.awaitPhase("across", "Running", DEADLINE);
        } finally {
            first.kill();
        }
        // The backend forgets a job while the service is down, as a cluster's TTL would.
        deleteTree(root.resolve("jobs/default/forgotten"));

        try (ServiceProcess second = ServiceProcess.start(root)) {
            ServiceClient service = new ServiceClient(second.port());
            // The local backend ends a job whose processes the restart stopped: a change since the kill.
            service.awaitPhase("across", "Failed", DEADLINE);

            Map<String, Boolean> archivedByName = new LinkedHashMap<>();
            List<String> listed = new ArrayList<>();
            for (JsonNode item : service.getJson("/jobs?limit=500").path("items")) {
                listed.add(item.path("name").asString());
                archivedByName.put(item.path("name").asString(), service.status(item.path("name").asString())
                        .path("archived").asBoolean());
            }
            assertThat(listed).containsExactlyInAnyOrder("kept", "forgotten", "across", "progressed");
            // What the list showed before the restart, it shows after: the archive keeps a finished job's progress.
            await().atMost(DEADLINE).until(() -> progressListed(service, "progressed"));
            assertThat(archivedByName).containsEntry("forgotten", true).containsEntry("kept", false)
                    .containsEntry("across", false);
            assertThat(service.logs("forgotten", "role=trainer&index=0")).isEqualTo("forgotten\n");
        }

        Map<String, List<String>> transitions = transitions(root.resolve("history/jobs"));
        assertThat(transitions.get("across")).containsOnlyOnce("FAILED ServiceRestarted");
        // Running reached the store only if the recorder wrote it in the milliseconds before the kill -9, as
        // docs/operations/history.md says ("What a kill loses"), and Pending only if the recorder looked before
        // the job ran (it writes the status as it finds it); the change since the restart always does.
        assertThat(phases(transitions.get("across"))).endsWith("FAILED").isSubsetOf("PENDING", "RUNNING", "FAILED");
        assertThat(phases(transitions.get("kept"))).containsOnlyOnce("SUCCEEDED");
        transitions.values().forEach(changes -> {
            for (int i = 1; i < changes.size(); i++) {
                assertThat(changes.get(i)).as("a transition repeated: %s", changes).isNotEqualTo(changes.get(i - 1));
            }
        });
    }

    private static boolean progressListed(ServiceClient service, String name) {
        for (JsonNode item : service.getJson("/jobs?limit=500").path("items")) {
            if (item.path("name").asString().equals(name)) {
                return item.path("progress").path("step").asInt() == 4;
            }
        }
        return false;
    }

    private static List<String> phases(List<String> transitions) {
        return transitions.stream().map(change -> change.split(" ")[0]).toList();
    }

    /** Each job's recorded transitions ("PHASE reason"), in order, read from the embedded store once the service let go of it. */
    private static Map<String, List<String>> transitions(Path store) throws Exception {
        try (Connection db = DriverManager.getConnection("jdbc:h2:file:" + store, "sa", "");
             ResultSet rows = db.createStatement().executeQuery(
                     "select name, phase, reason from job_transitions order by name, seq")) {
            Map<String, List<String>> byJob = new TreeMap<>();
            while (rows.next()) {
                byJob.computeIfAbsent(rows.getString(1), name -> new ArrayList<>()).add(rows.getString(2) + " " + rows.getString(3));
            }
            return byJob;
        }
    }

    private static void deleteTree(Path tree) throws Exception {
        try (Stream<Path> files = Files.walk(tree)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(file);
            }
        }
    }
}

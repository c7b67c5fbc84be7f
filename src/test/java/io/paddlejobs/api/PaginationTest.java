package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A continue token is a position in the list: deleting the job a page ended with loses no other job. */
@Tag("redteam") // Red team round 1, M5: pagination losing jobs.
class PaginationTest extends ApiTest {

    @Test
    void deletingTheLastJobOfAPageLosesNoJobOnTheNextPage() {
        for (String name : List.of("p1", "p2", "p3", "p4", "p5")) {
            client.submit("{\"name\":\"" + name + "\",\"entry_point\":\"true\",\"trainers\":1,\"pservers\":1}", "paging");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> names(client.getJson("/jobs?namespace=paging&phase=Succeeded"))
                .size() == 5);

        JsonNode first = client.getJson("/jobs?namespace=paging&limit=2");
        assertThat(names(first)).containsExactly("p5", "p4");
        assertThat(client.delete("/jobs/p4?namespace=paging").statusCode()).isEqualTo(204);
        JsonNode second = client.getJson("/jobs?namespace=paging&limit=2&continue=" + first.get("continue").asString());

        assertThat(names(second)).containsExactly("p3", "p2");

        JsonNode filtered = client.getJson("/jobs?namespace=paging&phase=Succeeded&limit=1");
        assertThat(names(filtered)).containsExactly("p5");
        client.delete("/jobs/p5?namespace=paging");
        JsonNode next = client.getJson("/jobs?namespace=paging&phase=Succeeded&limit=1&continue="
                + filtered.get("continue").asString());
        assertThat(names(next)).containsExactly("p3");
    }

    private static List<String> names(JsonNode page) {
        return StreamSupport.stream(page.get("items").spliterator(), false).map(item -> item.get("name").asString()).toList();
    }
}

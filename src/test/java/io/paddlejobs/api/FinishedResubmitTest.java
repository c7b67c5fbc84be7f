package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Resubmitting the identical spec of a finished job: the same job back, and a warning that nothing ran. */
class FinishedResubmitTest extends ApiTest {

    @Test
    void anIdenticalResubmitOfAFinishedJobSaysNothingWasStarted() {
        String job = "{\"name\":\"once\",\"entry_point\":\"exit 3\",\"trainers\":1,\"pservers\":1}";
        client.submit(job, "resubmit");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.getJson("/jobs/once/status?namespace=resubmit")
                .get("phase").asString().equals("Failed"));

        HttpResponse<String> again = client.post("/jobs?namespace=resubmit", job);

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.headers().allValues("Warning")).anySatisfy(w -> assertThat(w).contains("nothing was started"));
        assertThat(again.body()).contains("delete it first");
    }
}

package io.paddlejobs.api.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.paddlejobs.testing.Settings;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** How many log responses one caller, and everyone, may hold open at once, and what a refusal says. */
@Tag("redteam") // Red team round 1, M2: a few log readers holding every tenant's log requests.
class LogStreamsTest {

    @Test
    void aCallerOverItsShareGetsA429NamingTheUserAndTheLimit() throws Exception {
        var open = new CountDownLatch(1);
        var streams = new LogStreams(Settings.of(StreamProperties.class, "logs.max-open-per-user", 1));
        try {
            streams.stream("alice", out -> awaitQuietly(open));

            var refused = catchThrowableOfType(ErrorResponseException.class, () -> streams.stream("alice", out -> { }));

            assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
            assertThat(refused.getBody().getDetail()).startsWith("User 'alice' already has 1 log streams open")
                    .contains("paddlejobs.streams.logs.max-open-per-user").doesNotContain("%");
            assertThat(refused.getBody().getType()).hasToString("urn:paddlejobs:problem:too-many-log-streams");
        } finally {
            open.countDown();
            streams.destroy();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

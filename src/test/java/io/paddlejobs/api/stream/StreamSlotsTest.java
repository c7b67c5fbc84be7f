package io.paddlejobs.api.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.paddlejobs.problem.ProblemType;
import io.paddlejobs.testing.Settings;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * One caller cannot take every event stream slot, whatever the kinds it opens; the service's total
 * still holds; a slot comes back once; each refusal is a typed problem with {@code Retry-After}.
 */
@Tag("redteam") // Red team round 2, M3: one tenant taking every stream slot.
class StreamSlotsTest {

    @Test
    void aCallerOverItsShareGetsA429NamingItAndTheLimitWhileOthersStillOpenStreams() {
        var slots = eventStreams(2, 10);
        slots.take("bob", "poll the status URL instead");
        slots.take("bob", "poll the list instead");

        var refused = catchThrowableOfType(ErrorResponseException.class, () -> slots.take("bob", "poll the list instead"));

        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        assertThat(refused.getBody().getDetail()).isEqualTo("User 'bob' already has 2 event streams open, the most one "
                + "caller may (paddlejobs.streams.max-open-per-user); close one, or poll the list instead.");
        assertThat(refused.getBody().getType()).isEqualTo(ProblemType.TOO_MANY_STREAMS.uri());
        assertThat(refused.getHeaders().getFirst("Retry-After")).isEqualTo("5");
        assertThat(slots.take("alice", "poll the list instead")).isNotNull();
    }

    @Test
    void pastTheTotalEveryoneGetsA503AndAReleasedSlotComesBackOnceOnly() {
        var slots = eventStreams(5, 2);
        Runnable first = slots.take("alice", "poll the status URL instead");
        slots.take("bob", "poll the status URL instead");

        var refused = catchThrowableOfType(ErrorResponseException.class,
                () -> slots.take("carol", "poll the status URL instead"));
        first.run();
        first.run();
        slots.take("carol", "poll the status URL instead");

        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(refused.getBody().getDetail()).contains("2 event streams", "paddlejobs.streams.max-open",
                "poll the status URL instead");
        assertThat(refused.getBody().getType()).isEqualTo(ProblemType.TOO_MANY_STREAMS.uri());
        assertThat(refused.getHeaders().getFirst("Retry-After")).isEqualTo("5");
        assertThat(catchThrowableOfType(ErrorResponseException.class,
                () -> slots.take("dave", "poll the status URL instead")).getStatusCode())
                .isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    }

    /**
     * Red team of 7 December, B1: a few tenants each at their own cap reached the total, and every other caller's
     * stream was refused. The last quarter of the total is kept for callers holding fewer than two.
     */
    @Test
    void tenantsEachAtTheirCapTakeNoMoreThanThreeQuartersOfTheTotalAndTheRestServesLightCallers() {
        var slots = eventStreams(4, 8);
        for (int i = 0; i < 4; i++) {
            slots.take("alice", "poll the list instead");
        }
        slots.take("bob", "poll the list instead");
        slots.take("bob", "poll the list instead");

        var bobsThird = catchThrowableOfType(ErrorResponseException.class, () -> slots.take("bob", "poll the list instead"));
        Runnable carols = slots.take("carol", "poll the list instead");
        slots.take("dave", "poll the list instead");
        var erins = catchThrowableOfType(ErrorResponseException.class, () -> slots.take("erin", "poll the list instead"));
        carols.run();
        var bobsThirdAgain = catchThrowableOfType(ErrorResponseException.class,
                () -> slots.take("bob", "poll the list instead"));

        assertThat(bobsThird.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        assertThat(bobsThird.getBody().getDetail()).isEqualTo("User 'bob' already has 2 event streams open, and the"
                + " service serves 6, past which its last 2 (of paddlejobs.streams.max-open, 8) are kept for callers with"
                + " fewer than 2 open; close one, or poll the list instead.");
        assertThat(erins.getStatusCode()).as("the total holds").isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(bobsThirdAgain.getStatusCode()).as("a kept slot freed is kept again")
                .isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        assertThat(slots.take("erin", "poll the list instead")).isNotNull();
    }

    /** The event streams' slots, with their settings bound as the service binds them. */
    private static StreamSlots eventStreams(int perUser, int total) {
        return new StreamSlots(EventStreams.limits(Settings.of(StreamProperties.class,
                "max-open-per-user", perUser, "max-open", total)));
    }
}

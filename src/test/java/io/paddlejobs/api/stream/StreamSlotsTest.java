package io.paddlejobs.api.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** One caller cannot take every stream slot; the service's total still holds; a slot comes back once. */
class StreamSlotsTest {

    @Test
    void aCallerOverItsShareGetsA429NamingItAndTheLimitWhileOthersStillOpenStreams() {
        var slots = new StreamSlots("watches", "poll the list instead", 2, 10);
        slots.take("bob");
        slots.take("bob");

        var refused = catchThrowableOfType(ErrorResponseException.class, () -> slots.take("bob"));

        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        assertThat(refused.getBody().getDetail()).isEqualTo("User 'bob' already has 2 watches open, the most one caller "
                + "may (paddlejobs.security.streams.max-per-user); close one, or poll the list instead.");
        assertThat(refused.getHeaders().getFirst("Retry-After")).isEqualTo("5");
        assertThat(slots.take("alice")).isNotNull();
    }

    @Test
    void pastTheTotalEveryoneGetsA503AndAReleasedSlotComesBackOnceOnly() {
        var slots = new StreamSlots("status streams", "poll the status URL instead", 5, 2);
        Runnable first = slots.take("alice");
        slots.take("bob");

        var refused = catchThrowableOfType(ErrorResponseException.class, () -> slots.take("carol"));
        first.run();
        first.run();
        slots.take("carol");

        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(refused.getBody().getDetail()).contains("2 status streams", "paddlejobs.security.streams.max-total");
        assertThat(catchThrowableOfType(ErrorResponseException.class, () -> slots.take("dave")).getStatusCode())
                .isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    }
}

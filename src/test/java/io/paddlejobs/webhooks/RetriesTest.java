package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.JobEvent;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetriesTest {

    private static final Instant EVENT = Instant.parse("2026-12-01T00:00:00Z");
    /** The defaults: 5 s, doubling up to 10 min, for 3 h. */
    private static final Retries DEFAULTS = new Retries(new RestartBackoff(Duration.ofSeconds(5), Duration.ofMinutes(10)),
            Duration.ofHours(3));

    @Test
    void aDeliveryThatAlwaysFailsIsTriedWithGrowingWaitsForHoursThenGivenUpAndMarked() {
        Delivery delivery = new Delivery("msg_1", JobEvent.FAILED, "http://127.0.0.1/", Delivery.SecretOf.JOB, "{}",
                EVENT, Delivery.State.PENDING, EVENT, List.of());
        List<Duration> waits = new ArrayList<>();
        Instant at = EVENT;
        while (delivery.state() == Delivery.State.PENDING) {
            Instant next = DEFAULTS.next(delivery, at);
            delivery = delivery.after(new Delivery.Try(at, 500, "busy", 3), next);
            if (next != null) {
                waits.add(Duration.between(at, next));
                at = next;
            }
        }
        assertThat(waits).startsWith(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20))
                .isSorted().last().isEqualTo(Duration.ofMinutes(10));
        assertThat(Duration.between(EVENT, at)).isGreaterThan(Duration.ofHours(2)).isLessThanOrEqualTo(Duration.ofHours(3));
        assertThat(delivery.state()).isEqualTo(Delivery.State.GAVE_UP);
        assertThat(delivery.nextAttemptAt()).isNull();
        assertThat(delivery.attempts()).hasSize(waits.size() + 1);
    }

    @Test
    void aTwoHundredIsADeliveryWhateverCameBefore() {
        Delivery delivery = new Delivery("msg_2", JobEvent.STARTED, "http://127.0.0.1/", Delivery.SecretOf.JOB, "{}",
                EVENT, Delivery.State.PENDING, EVENT, List.of());
        delivery = delivery.after(new Delivery.Try(EVENT, null, "no answer within 5000 ms", 5000), EVENT.plusSeconds(5));
        assertThat(delivery.state()).isEqualTo(Delivery.State.PENDING);
        delivery = delivery.after(new Delivery.Try(EVENT.plusSeconds(5), 204, "", 4), EVENT.plusSeconds(15));
        assertThat(delivery.state()).isEqualTo(Delivery.State.DELIVERED);
        assertThat(delivery.nextAttemptAt()).isNull();
        assertThat(delivery.after(new Delivery.Try(EVENT, 302, "", 1), EVENT).state())
                .as("a redirect is not followed: not delivered").isEqualTo(Delivery.State.PENDING);
    }
}

package io.paddlejobs.webhooks;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** {@code GET /jobs/{name}/deliveries}. */
@Schema(name = "Deliveries")
record DeliveriesView(List<DeliveryView> deliveries) {

    static DeliveriesView of(List<Delivery> deliveries) {
        return new DeliveriesView(deliveries.stream().map(DeliveryView::of).toList());
    }

    @Schema(name = "Delivery", description = "One event for one webhook")
    record DeliveryView(
            @Schema(description = "The webhook-id header: the same for every attempt") String id,
            @Schema(description = "The event", allowableValues = {"started", "restarting", "succeeded", "failed",
                    "cancelled", "stalled"}) String event,
            String url,
            @Schema(description = "pending (tried again at next_attempt_at), delivered (a 2xx came back) or gave_up"
                    + " (paddlejobs.webhooks.give-up-after passed without one)",
                    allowableValues = {"pending", "delivered", "gave_up"}) String state,
            Instant createdAt,
            Instant nextAttemptAt,
            List<AttemptView> attempts) {

        static DeliveryView of(Delivery d) {
            return new DeliveryView(d.id(), d.event().wireName(), d.url(), d.state().name().toLowerCase(Locale.ROOT),
                    d.createdAt(), d.nextAttemptAt(), d.attempts().stream().map(AttemptView::of).toList());
        }
    }

    @Schema(name = "DeliveryAttempt")
    record AttemptView(
            Instant at,
            @Schema(description = "The answer's status code; absent when none came") Integer status,
            @Schema(description = "The answer's first bytes (at most 1 KiB), or why none came")
            String answer,
            @Schema(description = "How long the attempt took") long durationMs) {

        static AttemptView of(Delivery.Try t) {
            return new AttemptView(t.at(), t.status(), t.answer(), t.millis());
        }
    }
}

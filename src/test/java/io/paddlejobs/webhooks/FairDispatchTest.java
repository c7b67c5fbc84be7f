package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.planning.JobEvent;
import io.paddlejobs.planning.RestartBackoff;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How due deliveries share the senders between namespaces (round 3's M1: one tenant's hanging receivers held them all). */
@Tag("redteam")
class FairDispatchTest {

    private static final Instant NOW = Instant.parse("2026-12-06T21:39:42Z");
    private static final RestartBackoff BACKOFF = new RestartBackoff(Duration.ofSeconds(5), Duration.ofMinutes(10));

    private final ReceiverHealth receivers = new ReceiverHealth(BACKOFF);

    private FairDispatch dispatch(int senders, int perNamespace) {
        return new FairDispatch(senders, perNamespace, receivers, new Retries(BACKOFF, Duration.ofHours(3)));
    }

    private static JobOutbox job(String namespace, String name, String... urls) {
        List<Delivery> deliveries = new ArrayList<>();
        for (String url : urls) {
            deliveries.add(Subscriptions.delivery(JobEvent.SUCCEEDED, url, Delivery.SecretOf.JOB, "{}", NOW));
        }
        return new JobOutbox(namespace, name, "whsec_x", "http://status", Handled.NOTHING, deliveries, false);
    }

    private static String[] hanging() {
        return IntStream.range(0, 10).mapToObj(i -> "http://127.0.0.1:" + (19200 + i) + "/h").toArray(String[]::new);
    }

    @Test
    void aNamespaceWhoseReceiversHangHoldsOnlyItsShareAndAnotherGoesAtOnce() {
        FairDispatch dispatch = dispatch(4, 2);
        List<JobOutbox> outboxes = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            outboxes.add(job("team-b", "flood" + i, hanging()));
        }
        List<FairDispatch.Start> first = dispatch.due(outboxes, NOW);
        assertThat(first).extracting(start -> start.job().namespace()).containsExactly("team-b", "team-b");

        outboxes.add(job("team-a", "a-victim", "http://127.0.0.1:18000/ok"));
        List<FairDispatch.Start> then = dispatch.due(outboxes, NOW);
        assertThat(then).extracting(start -> start.job().name()).containsExactly("a-victim");
    }

    @Test
    void namespacesTakeTurnsBeginningAfterTheOneThatWentFirst() {
        FairDispatch dispatch = dispatch(1, 1);
        List<JobOutbox> outboxes = List.of(job("c", "j", "http://h:3/"), job("a", "j", "http://h:1/"),
                job("b", "j", "http://h:2/"));
        List<String> served = new ArrayList<>();
        for (int turn = 0; turn < 3; turn++) {
            FairDispatch.Start start = dispatch.due(outboxes, NOW).get(0);
            served.add(start.job().namespace());
            dispatch.ended(start, false, NOW);
        }
        assertThat(served).containsExactly("a", "b", "c");
    }

    @Test
    void aReceiverHasOneDeliveryInFlightAndAWebhooksLaterEventWaitsForTheEarlierOne() {
        FairDispatch dispatch = dispatch(4, 4);
        JobOutbox twoEvents = new JobOutbox("a", "j", "whsec_x", "http://status", Handled.NOTHING, List.of(
                Subscriptions.delivery(JobEvent.STARTED, "http://h:1/x", Delivery.SecretOf.JOB, "{}", NOW),
                Subscriptions.delivery(JobEvent.SUCCEEDED, "http://h:1/x", Delivery.SecretOf.JOB, "{}", NOW)), false);
        JobOutbox sameReceiver = job("b", "k", "http://h:1/y");

        List<FairDispatch.Start> started = dispatch.due(List.of(twoEvents, sameReceiver), NOW);

        assertThat(started).hasSize(1);
        assertThat(started.get(0).delivery().event()).isIn(JobEvent.STARTED, JobEvent.SUCCEEDED);
        assertThat(started.get(0).delivery()).isNotEqualTo(twoEvents.deliveries().get(1));
    }

    @Test
    void aReceiverThatFailedThreeTimesInARowRestsEachFailureDoublingItsRestAndA2xxEndsIt() {
        String receiver = "http://127.0.0.1:19200";
        receivers.attempted(receiver, false, NOW);
        receivers.attempted(receiver, false, NOW);
        assertThat(receivers.ready(receiver, NOW)).isTrue();
        receivers.attempted(receiver, false, NOW);
        assertThat(receivers.ready(receiver, NOW.plusSeconds(4))).isFalse();
        assertThat(receivers.ready(receiver, NOW.plusSeconds(5))).isTrue();
        receivers.attempted(receiver, false, NOW.plusSeconds(5));
        assertThat(receivers.ready(receiver, NOW.plusSeconds(14))).isFalse();
        assertThat(receivers.ready(receiver, NOW.plusSeconds(15))).isTrue();
        receivers.attempted(receiver, true, NOW.plusSeconds(15));
        assertThat(receivers.ready(receiver, NOW.plusSeconds(15))).isTrue();
        receivers.attempted(receiver, false, NOW.plusSeconds(16));
        assertThat(receivers.ready(receiver, NOW.plusSeconds(16))).as("one failure after a 2xx").isTrue();
    }

    @Test
    void aRestingReceiversDeliveriesWaitWhileOthersGo() {
        FairDispatch dispatch = dispatch(4, 4);
        for (int i = 0; i < 3; i++) {
            receivers.attempted("http://h:1", false, NOW);
        }
        List<FairDispatch.Start> started = dispatch.due(List.of(job("a", "j", "http://h:1/x", "http://h:2/x")), NOW);
        assertThat(started).extracting(start -> start.receiver()).containsExactly("http://h:2");
    }

    @Test
    void aDeletedJobsDeliveryToAFailingReceiverIsGivenUpAndToAnotherGetsOneMoreAttempt() {
        FairDispatch dispatch = dispatch(4, 4);
        receivers.attempted("http://h:1", false, NOW);
        JobOutbox deleted = job("b", "gone", "http://h:1/x", "http://h:2/x").deleted();

        assertThat(dispatch.givenUp(List.of(deleted), NOW)).singleElement().satisfies(given -> {
            assertThat(given.delivery().url()).isEqualTo("http://h:1/x");
            assertThat(given.why()).contains("deleted");
        });
        assertThat(dispatch.due(List.of(deleted), NOW)).extracting(start -> start.receiver()).contains("http://h:2");
    }

    @Test
    void aDeliveryPastGiveUpAfterIsGivenUpEvenIfItsRestingReceiverNeverTookIt() {
        FairDispatch dispatch = dispatch(4, 4);
        for (int i = 0; i < 3; i++) {
            receivers.attempted("http://h:1", false, NOW);
        }
        JobOutbox waiting = job("a", "j", "http://h:1/x");

        assertThat(dispatch.givenUp(List.of(waiting), NOW.plus(Duration.ofHours(2)))).isEmpty();
        assertThat(dispatch.givenUp(List.of(waiting), NOW.plus(Duration.ofHours(3)).plusSeconds(1)))
                .singleElement().satisfies(given -> assertThat(given.why()).contains("give-up-after"));
    }
}

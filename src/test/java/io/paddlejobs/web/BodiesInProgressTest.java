package io.paddlejobs.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BodiesInProgressTest {

    @Test
    void aCallerAtTheLimitIsRefusedUntilOneOfItsBodiesHasArrivedAndOtherCallersAreNot() {
        BodiesInProgress bodies = new BodiesInProgress(2, 10);
        var first = bodies.enter("alice").orElseThrow();
        bodies.enter("alice").orElseThrow();

        assertThat(bodies.enter("alice")).isEmpty();
        assertThat(bodies.enter("bob")).isPresent();
        first.leave();
        first.leave(); // its request ends after its body arrived: counted once
        assertThat(bodies.enter("alice")).isPresent();
        assertThat(bodies.enter("alice")).isEmpty();
    }

    @Test
    void callersEachUnderTheirLimitAreRefusedOnceAllTogetherReachTheTotal() {
        BodiesInProgress bodies = new BodiesInProgress(2, 3);
        bodies.enter("alice").orElseThrow();
        var bobs = bodies.enter("bob").orElseThrow();
        bodies.enter("carol").orElseThrow();

        assertThat(bodies.enter("dave")).isEmpty();
        assertThat(bodies.atCallerLimit("dave")).as("refused for the total, not its own").isFalse();
        assertThat(bodies.enter("alice")).isEmpty();
        bobs.leave();
        assertThat(bodies.enter("dave")).isPresent();
        assertThat(bodies.inProgress()).isEqualTo(3);
    }

    @Test
    void aCallerRefusedForItsOwnLimitTakesNothingOfTheTotal() {
        BodiesInProgress bodies = new BodiesInProgress(1, 2);
        bodies.enter("alice").orElseThrow();
        for (int i = 0; i < 5; i++) {
            assertThat(bodies.enter("alice")).isEmpty();
        }

        assertThat(bodies.atCallerLimit("alice")).isTrue();
        assertThat(bodies.enter("bob")).isPresent();
        assertThat(bodies.inProgress()).isEqualTo(2);
    }

    @Test
    void callersWhoseBodiesAllArrivedAreForgottenAndNoneGetsInOverTheLimitFromManyThreads() throws Exception {
        BodiesInProgress bodies = new BodiesInProgress(3, 10);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        AtomicInteger most = new AtomicInteger();
        AtomicInteger inside = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(8);
        for (int t = 0; t < 8; t++) {
            threads.execute(() -> {
                for (int i = 0; i < 2_000; i++) {
                    bodies.enter("alice").ifPresent(place -> {
                        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        inside.decrementAndGet();
                        place.leave();
                    });
                }
                done.countDown();
            });
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        threads.shutdown();

        assertThat(most.get()).isBetween(1, 3);
        assertThat(bodies.callers()).isZero();
        assertThat(bodies.inProgress()).isZero();
        List<BodiesInProgress.Place> again = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            again.add(bodies.enter("alice").orElseThrow());
        }
        assertThat(bodies.enter("alice")).isEmpty();
    }
}

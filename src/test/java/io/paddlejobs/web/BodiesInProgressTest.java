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
        BodiesInProgress bodies = new BodiesInProgress(2);
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
    void callersWhoseBodiesAllArrivedAreForgottenAndNoneGetsInOverTheLimitFromManyThreads() throws Exception {
        BodiesInProgress bodies = new BodiesInProgress(3);
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
        List<BodiesInProgress.Place> again = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            again.add(bodies.enter("alice").orElseThrow());
        }
        assertThat(bodies.enter("alice")).isEmpty();
    }
}

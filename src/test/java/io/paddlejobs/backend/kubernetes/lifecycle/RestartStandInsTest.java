package io.paddlejobs.backend.kubernetes.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What stands in for a job's trainer Job while a restart replaces it, and when it stops standing in. */
class RestartStandInsTest {

    private final AtomicLong now = new AtomicLong();
    private final RestartStandIns standIns = new RestartStandIns(now::get);
    private final Job failed = trainerJob("uid-attempt-0");
    private final String key = RestartStandIns.storeKey(failed);

    @Test
    void theFailedJobStandsInOnceTheCacheNoLongerHoldsIt() {
        standIns.standIn(failed);

        assertThat(standIns.orStandIn(key, failed)).isSameAs(failed);
        assertThat(standIns.orStandIn(key, null)).isSameAs(failed);
        assertThat(standIns.keysIn("team")).containsExactly(key);
        assertThat(standIns.keysIn("other")).isEmpty();
    }

    @Test
    void theNextAttemptsJobReplacesTheStandInForGood() {
        standIns.standIn(failed);
        Job next = trainerJob("uid-attempt-1");

        assertThat(standIns.orStandIn(key, next)).isSameAs(next);
        assertThat(standIns.orStandIn(key, null)).isNull();
        assertThat(standIns.keysIn("team")).isEmpty();
    }

    @Test
    void aRestartIsUnderWayUntilTheNextAttemptsJobIsCached() {
        assertThat(standIns.waitsForSuccessor(key, failed)).isFalse();
        standIns.standIn(failed);

        assertThat(standIns.waitsForSuccessor(key, failed)).as("deleted, the cache not told yet").isTrue();
        assertThat(standIns.waitsForSuccessor(key, null)).as("between the delete and the create").isTrue();
        assertThat(standIns.waitsForSuccessor(key, trainerJob("uid-attempt-1"))).isFalse();
        assertThat(standIns.waitsForSuccessor(key, null)).as("done with for good").isFalse();
    }

    @Test
    void aForgottenStandInIsNoLongerShown() {
        standIns.standIn(failed);

        standIns.forget("team", "train-trainer");

        assertThat(standIns.orStandIn(key, null)).isNull();
    }

    @Test
    void aStandInWhoseSuccessorNeverCameGoesAfterTheLongestWait() {
        standIns.standIn(failed);

        now.addAndGet(RestartStandIns.LONGEST.toNanos());
        assertThat(standIns.orStandIn(key, null)).isSameAs(failed);
        now.incrementAndGet();
        assertThat(standIns.orStandIn(key, null)).isNull();
        assertThat(standIns.keysIn("team")).isEmpty();
    }

    @Test
    void withoutAStandInTheCacheIsAnsweredAsItIs() {
        assertThat(standIns.orStandIn(key, null)).isNull();
        assertThat(standIns.orStandIn(key, failed)).isSameAs(failed);
    }

    private static Job trainerJob(String uid) {
        return new JobBuilder().withNewMetadata().withNamespace("team").withName("train-trainer").withUid(uid)
                .endMetadata().build();
    }
}

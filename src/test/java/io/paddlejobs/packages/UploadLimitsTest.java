package io.paddlejobs.packages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.testing.Settings;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("redteam") // Red team round 2, M1: slow uploads.
class UploadLimitsTest {

    final AtomicLong nanos = new AtomicLong();
    final UploadLimits limits = new UploadLimits(Settings.defaults(PackagesProperties.class), nanos::get); // 2 at once, 64 KiB/s after 10 s

    @Test
    void aUserHasTwoUploadsAtOnceAndGetsASlotBackWhenOneEnds() {
        UploadLimits.Slot first = limits.take("alice");
        limits.take("alice");

        assertThatThrownBy(() -> limits.take("alice")).isInstanceOf(UploadRefusedException.class)
                .hasMessageContaining("may upload 2 packages at once");
        limits.take("bob").close();
        first.close();
        limits.take("alice");
    }

    @Test
    void anUploadBelowTheRateFloorAfterTheGracePeriodIsCutOff() throws Exception {
        InputStream body = limits.paced(new ByteArrayInputStream(new byte[1024 * 1024]));
        byte[] buffer = new byte[1024];

        nanos.set(Duration.ofSeconds(9).toNanos());
        body.read(buffer); // 1 KiB in 9 s: slow, but within the grace period
        nanos.set(Duration.ofSeconds(11).toNanos());

        assertThatThrownBy(() -> body.read(buffer)).isInstanceOf(UploadRefusedException.class)
                .hasMessageContaining("below the 64 KiB/s");
    }

    @Test
    void anUploadThatKeepsTheRateIsRead() throws Exception {
        InputStream body = limits.paced(new ByteArrayInputStream(new byte[2 * 1024 * 1024]));

        nanos.set(Duration.ofSeconds(20).toNanos());

        assertThat(body.read(new byte[4 * 1024 * 1024])).isEqualTo(2 * 1024 * 1024); // 2 MiB in 20 s: 100 KiB/s
    }
}

package io.paddlejobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LineSinkTest {

    final List<String> lines = new ArrayList<>();
    final AtomicInteger overlong = new AtomicInteger();
    final LineSink sink = new LineSink(lines::add, overlong::incrementAndGet);

    @Test
    void reportLinesArePassedOnWholeAcrossWritesAndOtherLinesAreNot() {
        write("pass 1 loss 0.3\nPADDLEJOBS_METR");
        write("ICS {\"step\": 1, \"loss\": 0.3}\r\nPADDLE is not a report\n");
        write("PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.2}");

        assertThat(lines).containsExactly("PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 0.3}");
        sink.finish();
        assertThat(lines).last().isEqualTo("PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.2}");
    }

    @Test
    void reportLongerThanTheLimitIsDroppedAndCounted() {
        write("PADDLEJOBS_METRICS {\"step\": 1, \"x\": \"" + "a".repeat(LineSink.MAX_LINE) + "\"}\n");
        write("PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.2}\n");

        assertThat(overlong).hasValue(1);
        assertThat(lines).containsExactly("PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.2}");
    }

    private void write(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        sink.write(bytes, 0, bytes.length);
    }
}

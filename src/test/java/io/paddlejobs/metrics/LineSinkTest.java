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
        write("pass 1 loss 0.3\nPAPADDLEJOBS_METR");
        write("ICS {\"step\": 1, \"loss\": 0.3}\r\nPADDLE is not a report\n");
        write("PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.2}");

        assertThat(lines).containsExactly("PADDLEJOBS_METRICS {\"step\": 1, \"loss\": 0.3}");
        sink.finish();
        assertThat(lines).last().isEqualTo("PADDLEJOBS_METRICS {\"step\": 2, \"loss\": 0.2}");
    }

    /** hapi's ProgBarLogger rewrites its line with \r and no newline; a report printed meanwhile lands on it. */
    @Test
    void reportsAfterAProgressBarOrACarriageReturnAreFoundAndTheBarsNextRewriteEndsThem() {
        write("\rstep  8/32 [===>......] - loss: 0.52 - 26ms/stepPADDLEJOBS_METRICS {\"step\": 8, \"loss\": 0.52}\n");
        write("\rstep  9/32 [====>.....] - loss: 0.50\rPADDLEJOBS_METRICS {\"step\": 9, \"loss\": 0.5}");
        write("\rstep 10/32 [=====>....] - loss: 0.48 - 25ms/step");
        write("PADDLEJOBS_METRICS {\"step\": 10}PADDLEJOBS_METRICS {\"step\": 11}\n");

        assertThat(lines).containsExactly(
                "PADDLEJOBS_METRICS {\"step\": 8, \"loss\": 0.52}",
                "PADDLEJOBS_METRICS {\"step\": 9, \"loss\": 0.5}",
                "PADDLEJOBS_METRICS {\"step\": 10}",
                "PADDLEJOBS_METRICS {\"step\": 11}");
    }

    @Test
    void textThatOnlyLooksLikeAReportIsStillHandedOnToBeCounted() {
        write("note: PADDLEJOBS_METRICS{\"step\": 1} has no space\nPADDLEJOBS_METRIC {\"step\": 2}\n");

        assertThat(lines).containsExactly("PADDLEJOBS_METRICS{\"step\": 1} has no space");
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

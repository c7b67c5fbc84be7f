package io.paddlejobs.backend.kubernetes.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.paddlejobs.backend.kubernetes.manifest.JobLabels;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a restart carries of the earlier attempts' logs: every attempt so far, each end cut to its share, at a line. */
class EarlierLogsTest {

    @Test
    void eachRestartCarriesTheAttemptsBeforeAndCutsEveryEndToItsShareAtALine() {
        String line = "x".repeat(99) + "\n";
        String big = "first line\n" + line.repeat(400) + "Traceback (most recent call last):\nRuntimeError: boom\n";
        Job first = carrying(EarlierLogs.carried(null, 0, Map.of("trainer-0", big, "pserver-0", "ready\n")));

        assertThat(EarlierLogs.of(first, 0, "pserver-0")).hasValue("ready\n");
        String trainerEnd = EarlierLogs.of(first, 0, "trainer-0").orElseThrow();
        assertThat(trainerEnd.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(EarlierLogs.MAX_BYTES_EACH);
        assertThat(trainerEnd).startsWith(line).endsWith("RuntimeError: boom\n");

        Map<String, String> many = new java.util.TreeMap<>();
        for (int i = 0; i < 16; i++) {
            many.put("trainer-" + i, big);
        }
        Job second = carrying(EarlierLogs.carried(first, 1, many));
        int share = EarlierLogs.TOTAL_BYTES / 18;
        assertThat(EarlierLogs.of(second, 0, "trainer-0").orElseThrow()).endsWith("RuntimeError: boom\n")
                .satisfies(end -> assertThat(end.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(share));
        assertThat(EarlierLogs.of(second, 1, "trainer-15").orElseThrow()).endsWith("RuntimeError: boom\n");
        assertThat(EarlierLogs.of(second, 0, "pserver-0")).hasValue("ready\n");
        assertThat(EarlierLogs.of(second, 2, "trainer-0")).isEmpty();
        assertThat(second.getMetadata().getAnnotations().get(JobLabels.EARLIER_LOGS_ANNOTATION).length())
                .isLessThan(EarlierLogs.TOTAL_BYTES + 4096);
    }

    @Test
    void aLogOfControlCharactersIsCutUntilItsJsonFitsTheAnnotation() {
        Map<String, String> colours = new java.util.TreeMap<>();
        for (int i = 0; i < 8; i++) {
            colours.put("trainer-" + i, ("\u001b[31m\u001b[0m\u0001\n").repeat(5000) + "RuntimeError: boom\n");
        }
        Job carried = carrying(EarlierLogs.carried(null, 0, colours));

        assertThat(carried.getMetadata().getAnnotations().get(JobLabels.EARLIER_LOGS_ANNOTATION).length())
                .isLessThanOrEqualTo(EarlierLogs.MAX_ANNOTATION_CHARS);
        assertThat(EarlierLogs.of(carried, 0, "trainer-7").orElseThrow()).endsWith("RuntimeError: boom\n");
    }

    private static Job carrying(String value) {
        return new JobBuilder().withNewMetadata().withName("job").addToAnnotations(JobLabels.EARLIER_LOGS_ANNOTATION, value)
                .endMetadata().build();
    }
}

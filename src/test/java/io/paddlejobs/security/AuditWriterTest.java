package io.paddlejobs.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class AuditWriterTest {

    @Test
    void aLineIsWrittenOnTheWritersThreadNotTheCallers(CapturedOutput output) throws InterruptedException {
        try (AuditWriter writer = new AuditWriter()) {
            writer.write("action=submit job=off-thread");

            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(output.getOut().lines()
                    .filter(line -> line.endsWith("action=submit job=off-thread")))
                    .singleElement().asString().containsPattern("\\[\\s*audit-writer\\]"));
        }
    }

    @Test
    void closingWritesEveryLineEvenWhenMoreCameThanTheQueueHolds(CapturedOutput output) throws InterruptedException {
        int lines = AuditWriter.CAPACITY * 3;
        AuditWriter writer = new AuditWriter();
        for (int i = 0; i < lines; i++) {
            writer.write("action=delete job=burst-" + i);
        }
        writer.close();
        writer.write("action=delete job=after-close");

        Set<String> written = output.getOut().lines().filter(line -> line.contains("job=burst-"))
                .map(line -> line.substring(line.indexOf("job=burst-"))).collect(Collectors.toSet());
        assertThat(written).hasSize(lines);
        assertThat(output.getOut()).contains("job=after-close");
    }
}

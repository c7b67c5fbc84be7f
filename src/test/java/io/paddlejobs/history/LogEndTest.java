package io.paddlejobs.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A kept log: whole up to the size, else its end from a whole line, with a note of what was left out. */
class LogEndTest {

    @Test
    void aLogWithinTheSizeIsKeptWhole() {
        LogEnd kept = new LogEnd(64);
        write(kept, "first\nsecond\n");

        assertThat(kept.text()).isEqualTo("first\nsecond\n");
    }

    @Test
    void aLongerLogKeepsItsEndFromTheFirstWholeLineWithinTheSizeAndSaysHowMuchWasLeftOut() {
        LogEnd kept = new LogEnd(20);
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            log.append("line ").append(i).append('\n'); // written in pieces far beyond twice the size
        }
        for (String piece : log.toString().split("(?<=\n)")) {
            write(kept, piece);
        }

        String text = kept.text();
        String end = "line 999\nline 1000\n";
        assertThat(text).endsWith("\n" + end);
        int leftOut = log.length() - end.length();
        assertThat(text).startsWith("[paddle-jobs: the first " + leftOut + " bytes of this log were not kept");
    }

    @Test
    void aCutNeverSplitsACharacter() {
        LogEnd kept = new LogEnd(10);
        write(kept, "ééééééééééééé\nok\n");

        assertThat(kept.text()).endsWith("]\nok\n").doesNotContain("\uFFFD");
    }

    private static void write(LogEnd kept, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        kept.write(bytes, 0, bytes.length);
    }
}

package io.paddlejobs.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LastWordsTest {

    @TempDir
    Path dir;

    @Test
    void theLastLineThatSaysSomethingPassingOverBlanksMetricsAndTheServicesNotes() {
        assertThat(LastWords.lastSaying("""
                Traceback (most recent call last):
                  File "train.py", line 3, in <module>
                RuntimeError: NCCL error in: all_reduce
                PADDLEJOBS_METRICS {"step": 7, "loss": 0.2}

                [paddle-jobs: 1024 bytes of earlier output dropped]
                """)).hasValue("RuntimeError: NCCL error in: all_reduce");
        assertThat(LastWords.lastSaying("\n\n  \n")).isEmpty();
    }

    @Test
    void colourAndControlCharactersGoAndALongLineIsCut() {
        assertThat(LastWords.lastSaying("\u001b[31mError\u001b[0m: bad\u0007 input\r\n")).hasValue("Error: bad input");
        assertThat(LastWords.lastSaying("x".repeat(1000)).orElseThrow())
                .hasSize(LastWords.MAX_CHARS + 3).endsWith("...");
        // A progress bar rewrites its line with \r: its last state counts as a line.
        assertThat(LastWords.lastSaying("step 1/9\rstep 2/9\rKilled")).hasValue("Killed");
    }

    @Test
    void aLogIsReadFromItsEndAndALinkInItsPlaceHasNoWords() throws IOException {
        Path log = dir.resolve("trainer-0.log");
        Files.writeString(log, "noise\n".repeat(50_000) + "OSError: [Errno 28] No space left on device\n");
        assertThat(LastWords.of(log)).hasValue("OSError: [Errno 28] No space left on device");

        Path planted = dir.resolve("trainer-1.log");
        Files.createSymbolicLink(planted, log);
        assertThat(LastWords.of(planted)).isEmpty();
        assertThat(LastWords.of(dir.resolve("missing.log"))).isEmpty();
    }
}

package io.paddlejobs.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExitCodesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            1   | Error     | exit code 1: the program reported an error; see its log
            127 | Error     | exit code 127: command not found; check the entry point and that the image contains it
            137 | Error     | exit code 137: killed (SIGKILL, often out of memory)
            137 | OOMKilled | exit code 137: killed for using more memory than it was given (out of memory); ask for more memory
            139 | Error     | exit code 139: segmentation fault (SIGSEGV)
            143 | Error     | exit code 143: terminated (SIGTERM)
            130 | Error     | exit code 130: killed by signal 2
            42  | Error     | exit code 42: see its log
            """)
    void exitCodesAreExplained(int code, String reason, String words) {
        assertThat(ExitCodes.describe(code, reason)).isEqualTo(words);
    }
}

package io.paddlejobs.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExitCodesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            0   | -         | exited with code 0 (finished successfully)
            1   | Error     | exited with code 1 (the program reported an error; see its log)
            127 | -         | exited with code 127 (command not found: check entry_point and that PATH or the image holds it)
            137 | Error     | killed by signal 9 (SIGKILL: killed, often for running out of memory)
            137 | OOMKilled | killed for using more memory than it was given (out of memory, exit code 137); ask for more memory
            139 | Error     | killed by signal 11 (SIGSEGV: the program crashed)
            143 | -         | killed by signal 15 (SIGTERM: asked to stop)
            158 | Error     | killed by signal 30 (signal 30)
            42  | -         | exited with code 42
            """)
    void everyBackendExplainsAnExitCodeInTheseWords(int code, String terminationReason, String words) {
        assertThat(ExitCodes.describe(code, terminationReason)).isEqualTo(words);
    }
}

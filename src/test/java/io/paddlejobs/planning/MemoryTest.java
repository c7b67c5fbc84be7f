package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class MemoryTest {

    private static final long MI = 1024L * 1024;
    private static final long GI = 1024 * MI;

    @ParameterizedTest(name = "{0} = {1} bytes")
    @CsvSource({
            "512Mi, 536870912",
            "2Gi, 2147483648",
            "1G, 1000000000",
            "1.5Gi, 1610612736",
            "1e9, 1000000000",
            "1E3, 1000",
            "1.5e3, 1500",
            "1500M, 1500000000",
            "123, 123",
            "0, 0",
            "0.5Ki, 512",
            "1k, 1000",
            "1K, 1000",
            "4Ti, 4398046511104",
            "2T, 2000000000000",
            "1P, 1000000000000000",
            "1Pi, 1125899906842624",
    })
    void parseReadsKubernetesQuantities(String text, long bytes) {
        assertThat(Memory.parse(text).bytes()).isEqualTo(bytes);
        assertThat(Memory.isValid(text)).isTrue();
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"1 GB", "1GB", "-1Gi", "abc", "", "Gi", "1.5", "0.1Ki", ".5Gi", "1.Gi", "1e", "1gi",
            "1m", "1Ei", "1 Gi", "8192Pi", "99999999999999999999", "1e999999999999"})
    void parseRejectsWhatIsNotAWholeNumberOfBytesInQuantitySyntax(String text) {
        assertThat(Memory.isValid(text)).isFalse();
        assertThatThrownBy(() -> Memory.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'");
    }

    @ParameterizedTest
    @NullSource
    void parseRejectsAMissingValue(String text) {
        assertThatThrownBy(() -> Memory.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("missing");
    }

    /** Ten to the power of a huge exponent must not be computed just to find out it is too large. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1e99999999", "1e999999999", "2.5e2147483647"})
    @Timeout(value = 5, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void parseRejectsAHugeExponentQuickly(String text) {
        assertThat(Memory.isValid(text)).isFalse();
        assertThat(Memory.isValid("0" + text.substring(text.indexOf('e')))).as("zero is zero").isTrue();
    }

    @ParameterizedTest(name = "{0} bytes -> {1}")
    @CsvSource({
            "1073741824, 1Gi",
            "1610612736, 1536Mi",
            "536870912, 512Mi",
            "1000000000, 1G",
            "500000000, 500M",
            "1500000000, 1500M",
            "2000000000, 2G",
            "8000000000, 8G",
            "1024000, 1024k",
            "1048576000, 1000Mi",
            "2000000000000, 2T",
            "1125899906842624, 1Pi",
            "3000000000000000, 3P",
            "1024, 1Ki",
            "1000, 1k",
            "123, 123",
            "0, 0",
    })
    void toStringWritesTheShortestExactQuantity(long bytes, String text) {
        assertThat(new Memory(bytes)).hasToString(text);
        assertThat(Memory.parse(text).bytes()).as("round trip").isEqualTo(bytes);
    }

    @ParameterizedTest(name = "{0} / {1} = {2}")
    @CsvSource({
            "1Gi, 2, 512Mi",
            "1Gi, 3, 341Mi",
            "1G, 2, 500M",
            "1G, 3, 317Mi",
            "3Gi, 3, 1Gi",
            "1Gi, 1, 1Gi",
            "1.5Gi, 4, 384Mi",
            "1000, 3, 0",
    })
    void dividedBySplitsExactlyOrRoundsDownToWholeMebibytes(String total, int parts, String share) {
        assertThat(Memory.parse(total).dividedBy(parts)).hasToString(share);
    }

    @Test
    void arithmeticIsExactAndNeverNegative() {
        assertThat(Memory.parse("512Mi").times(3)).isEqualTo(Memory.parse("1536Mi"));
        assertThat(Memory.parse("1Gi").plus(Memory.parse("512Mi"))).hasToString("1536Mi");
        assertThat(Memory.ofMebibytes(2048)).isEqualTo(new Memory(2 * GI));
        assertThat(Memory.parse("1Gi")).isGreaterThan(Memory.parse("1G")).isLessThan(Memory.parse("1025Mi"));
        assertThatThrownBy(() -> new Memory(Long.MAX_VALUE).plus(new Memory(1))).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> new Memory(Long.MAX_VALUE / 2 + 1).times(2)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> new Memory(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aShareOfAFewBytesIsNotRoundedUp() {
        assertThat(new Memory(3 * MI + 1).dividedBy(2).bytes()).isEqualTo(MI);
    }
}

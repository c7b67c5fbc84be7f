package io.paddlejobs.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CpuTest {

    @ParameterizedTest(name = "{0} millicores -> {1}")
    @CsvSource({"2000, 2", "1000, 1", "250, 250m", "333, 333m", "1500, 1500m", "0, 0", "64000, 64"})
    void toStringWritesWholeCoresPlainAndTheRestInMillicores(long millis, String text) {
        assertThat(new Cpu(millis)).hasToString(text);
    }

    @ParameterizedTest(name = "{0} -> {1} millicores")
    @CsvSource({"2, 2000", "250m, 250", "333m, 333", "1500m, 1500", "0, 0", "64, 64000"})
    void parseReadsWhatToStringWrites(String text, long millis) {
        assertThat(Cpu.parse(text).millis()).isEqualTo(millis);
        assertThat(Cpu.parse(new Cpu(millis).toString())).as("round trip").isEqualTo(new Cpu(millis));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"abc", "", "m", "2 m", "1.5", "-1", "-250m", "2cores"})
    void parseRejectsWhatIsNotACpuAmount(String text) {
        assertThatThrownBy(() -> Cpu.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} cores / {1} = {2}")
    @CsvSource({"1, 3, 333m", "2, 4, 500m", "3, 2, 1500m", "4, 2, 2", "5, 8, 625m", "1, 1, 1", "1, 2000, 0"})
    void dividedBySplitsIntoWholeMillicoresRoundingDown(int cores, int parts, String share) {
        assertThat(Cpu.cores(cores).dividedBy(parts)).hasToString(share);
    }

    @ParameterizedTest(name = "{0} -> {1} threads")
    @CsvSource({"333m, 1", "0, 1", "1500m, 1", "2, 2", "2999m, 2", "16, 16"})
    void wholeCoresAtLeastOneRoundsDownButNeverToZero(String cpu, int cores) {
        assertThat(Cpu.parse(cpu).wholeCoresAtLeastOne()).isEqualTo(cores);
    }

    @Test
    void arithmeticIsInMillicoresAndNeverNegative() {
        assertThat(Cpu.cores(3)).isEqualTo(new Cpu(3000));
        assertThat(new Cpu(333).times(3).plus(Cpu.cores(3))).hasToString("3999m");
        assertThatThrownBy(() -> new Cpu(Long.MAX_VALUE).times(2)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> new Cpu(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}

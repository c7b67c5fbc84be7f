package io.paddlejobs.planning;

import static io.paddlejobs.planning.PlannerFixtures.violations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.paddlejobs.planning.RestartOn.Cause;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RestartRulesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            max_restarts=11                                  | max_restarts                | paddlejobs.limits.max-restarts
            restart_on=any                                   | restart_on,max_restarts     | max_restarts is 0
            max_restarts=0 restart_on=infrastructure         | restart_on,max_restarts     | max_restarts is 0
            max_restarts=2 restart_on=stall                  | restart_on,stall_timeout    | set stall_timeout
            debug_hold=31m                                   | debug_hold                  | paddlejobs.limits.max-debug-hold
            """)
    void restartSettingsThatCannotWorkAreViolationsNamingEveryFieldInvolved(String spec, String fields, String words) {
        assertThat(violations(spec)).anySatisfy(v -> {
            assertThat(v.fields()).containsExactlyElementsOf(List.of(fields.split(",")));
            assertThat(v.message()).contains(words);
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            max_restarts=10
            max_restarts=3 restart_on=infrastructure,1,137
            max_restarts=1 restart_on=stall stall_timeout=30m
            stall_timeout=5m
            debug_hold=30m max_restarts=1
            """)
    void restartSettingsWithinTheRulesPlan(String spec) {
        assertThat(violations(spec)).isEmpty();
    }

    @ParameterizedTest(name = "{0} on {1} exit {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            any                | EXIT           | 1   | true
            any                | INFRASTRUCTURE | 137 | true
            any                | STALL          |     | false
            infrastructure     | EXIT           | 1   | false
            infrastructure     | INFRASTRUCTURE | 137 | true
            infrastructure     | STALL          |     | false
            stall              | STALL          |     | true
            stall              | INFRASTRUCTURE | 137 | false
            1,134              | EXIT           | 134 | true
            1,134              | EXIT           | 2   | false
            137                | INFRASTRUCTURE | 137 | true
            """)
    void restartOnRetriesWhatItNames(String wire, Cause cause, Integer exitCode, boolean retried) {
        assertThat(RestartOn.parse(List.of(wire.split(","))).retries(cause, exitCode)).isEqualTo(retried);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            sometimes | neither one of
            0         | 1..255
            256       | 1..255
            -1        | neither one of
            """)
    void restartOnRefusesWhatIsNeitherAWordNorAnExitCode(String item, String words) {
        assertThatIllegalArgumentException().isThrownBy(() -> RestartOn.parse(List.of(item)))
                .withMessageContaining(words);
    }

    @org.junit.jupiter.api.Test
    void restartOnWritesOneWordAsTheWordAndTheRestAsAList() {
        assertThat(RestartOn.parse("infrastructure").wire()).isEqualTo("infrastructure");
        assertThat(RestartOn.parse(List.of(137, "stall", 1)).wire()).isEqualTo(List.of("stall", 1, 137));
        assertThat(RestartOn.parse(RestartOn.parse(List.of(137, "any")).wire())).isEqualTo(RestartOn.parse(List.of("any", 137)));
    }
}

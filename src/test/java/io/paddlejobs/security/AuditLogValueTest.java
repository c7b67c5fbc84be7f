package io.paddlejobs.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AuditLogValueTest {

    @Test
    void plainNamesAreWrittenAsTheyAre() {
        assertThat(AuditLog.value("team-a")).isEqualTo("team-a");
        assertThat(AuditLog.value("alice@example.org")).isEqualTo("alice@example.org");
    }

    @Test
    void aValueWithSpacesQuotesOrNewlinesIsQuotedSoItCannotForgeAnotherKeyOrLine() {
        assertThat(AuditLog.value("x outcome=created")).isEqualTo("\"x outcome=created\"");
        assertThat(AuditLog.value("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
        assertThat(AuditLog.value("one\naction=delete")).isEqualTo("\"one\\u000aaction=delete\"");
    }

    @Test
    void nextLineSeparatorsAndBidiControlsAreEscapedToo() {
        assertThat(AuditLog.value("\u0085action=delete")).isEqualTo("\"\\u0085action=delete\"");
        assertThat(AuditLog.value("a\u2028b\u2029c")).isEqualTo("\"a\\u2028b\\u2029c\"");
        assertThat(AuditLog.value("job\u202eexe.txt")).isEqualTo("\"job\\u202eexe.txt\"");
        assertThat(AuditLog.value("naïve job")).isEqualTo("\"naïve job\"");
    }

    @Test
    void noValueIsADash() {
        assertThat(AuditLog.value(null)).isEqualTo("-");
    }
}

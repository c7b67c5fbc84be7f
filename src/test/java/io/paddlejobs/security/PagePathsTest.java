package io.paddlejobs.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which paths the page filter lets through and {@code Vary: Accept} marks: the same ones, by one rule. */
class PagePathsTest {

    @ParameterizedTest
    @CsvSource({
        "/jobs, true",
        "/jobs/train/status, true",
        "/jobs/, false",
        "/jobs/train/status/, false",
        "/jobs/train, false",
        "/jobs/train/logs, false",
        "/jobs/a/b/status, false",
        "/jobsx, false",
    })
    void onlyTheListAndAStatusPathServeAPageAndJson(String path, boolean negotiated) {
        assertThat(PagePaths.servesPageAndJson(path)).isEqualTo(negotiated);
    }
}

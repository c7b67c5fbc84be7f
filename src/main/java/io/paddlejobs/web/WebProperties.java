package io.paddlejobs.web;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How requests are read ({@code paddlejobs.web.*}); Tomcat's own settings stay under {@code server.*}.
 *
 * @param requestBodyTimeout how long a request body (code package uploads aside) may take to arrive in all
 *                           before the request is answered 408; Tomcat's timeout is per read, so a client
 *                           sending a byte every few seconds could otherwise hold a thread for ever
 * @param maxBodiesPerCaller the most request bodies one caller (a user, or an address where nobody signs in) may be
 *                           sending at once; one more is answered 429 at once. On a JDK without virtual threads each
 *                           holds one of Tomcat's fixed pool of threads while it arrives, so this keeps one caller
 *                           sending slowly from holding them all
 * @param maxBodiesInProgress the most request bodies all callers together may be sending at once (one more is
 *                           answered 429 at once), and the most refused bodies read to their end after the answer:
 *                           so slow bodies hold at most twice this many of Tomcat's threads, however many callers
 *                           send them, and the rest serve everyone else (reads, streams, readiness)
 */
@Validated
@ConfigurationProperties("paddlejobs.web")
public record WebProperties(@DefaultValue("10s") @NotNull Duration requestBodyTimeout,
                            @DefaultValue("16") @Positive int maxBodiesPerCaller,
                            @DefaultValue("64") @Positive int maxBodiesInProgress) {
}

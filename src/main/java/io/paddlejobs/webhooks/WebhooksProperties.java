package io.paddlejobs.webhooks;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Webhooks ({@code paddlejobs.webhooks.*}): where they may go, how they are signed and sent, how long
 * they are tried.
 *
 * @param dir             the outbox: one file per job with webhooks (its secret, its deliveries), kept
 *                        until it is deleted and nothing is pending (application.yaml:
 *                        {@code <paddlejobs.local.data-root>/webhooks}, beside the history)
 * @param allowedHosts    the hosts webhooks may be sent to: names, {@code *.example.com} for a domain's
 *                        hosts, IP addresses and CIDR blocks ({@code 10.0.0.0/8}); a name must resolve to
 *                        public addresses only unless its addresses are listed too, and an address in a URL
 *                        must be in a listed block (being public is not enough). Empty: loopback
 *                        ({@code localhost}, {@code 127.0.0.1}, {@code ::1}) in security mode {@code none},
 *                        nothing in the other modes
 * @param secrets         a namespace's secret ({@code whsec_} and base64), by namespace: it signs the
 *                        deliveries of every job there and of its subscriptions, and jobs get none of their own
 * @param subscriptions   webhooks told of every job of a namespace, by namespace (each needs the namespace's secret)
 * @param readTimeout     how long a receiver may take to answer, body included
 * @param senders         deliveries sent at once, at most one per receiver (host and port): a receiver that
 *                        does not answer holds one sender for {@code read-timeout}, never the others
 * @param sendersPerNamespace deliveries of one namespace sent at once, at most: the namespaces with
 *                        deliveries due take turns for the senders, and one whose receivers hang holds no
 *                        more than this many; a receiver that failed 3 times in a row rests
 *                        ({@code retry-backoff} doubling to {@code max-retry-backoff}) before it is tried again
 * @param retryBackoff    the wait after a failed attempt, doubling with each one after it
 * @param maxRetryBackoff the longest wait between two attempts
 * @param giveUpAfter     how long after its event a delivery is still tried; then it is given up and marked so
 */
@Validated
@ConfigurationProperties("paddlejobs.webhooks")
public record WebhooksProperties(
        @DefaultValue("data/webhooks") @NotNull Path dir,
        @DefaultValue List<String> allowedHosts,
        @DefaultValue Map<String, String> secrets,
        @DefaultValue Map<String, List<@Valid Subscription>> subscriptions,
        @DefaultValue("5s") @NotNull Duration readTimeout,
        @DefaultValue("4") @Min(1) @Max(256) int senders,
        @DefaultValue("2") @Min(1) @Max(256) int sendersPerNamespace,
        @DefaultValue("5s") @NotNull Duration retryBackoff,
        @DefaultValue("10m") @NotNull Duration maxRetryBackoff,
        @DefaultValue("3h") @NotNull Duration giveUpAfter) {

    /** How long a connection to a receiver may take: an address that answers at all answers within it. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /**
     * How much of an answer is read and kept (the rest is not read): enough for a receiver's error message,
     * little enough that a job's listed deliveries stay small whatever its receivers answer.
     */
    static final int MAX_ANSWER = 1024;
    /** A job's delivered and given-up deliveries kept to be listed (older ones are dropped): a page's worth. */
    static final int KEEP_DELIVERIES = 100;

    /**
     * A namespace's webhook.
     *
     * @param events which events; empty: succeeded, failed and cancelled
     */
    public record Subscription(@NotBlank String url, @DefaultValue List<String> events) {
    }
}

package io.paddlejobs.webhooks;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes one attempt of a delivery: a signed POST that follows no redirect (a 3xx is an answer like any
 * other: not delivered), reads at most {@code maxAnswer} bytes of the answer, and gives up once the
 * receiver has taken {@code readTimeout} to answer, body included.
 */
final class Sender {

    private final HttpClient client;
    private final Duration readTimeout;
    private final int maxAnswer;
    private final Clock clock;

    Sender(Duration connectTimeout, Duration readTimeout, int maxAnswer, Clock clock) {
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.readTimeout = readTimeout;
        this.maxAnswer = maxAnswer;
        this.clock = clock;
    }

    Delivery.Try attempt(Delivery delivery, String secret) {
        long begun = System.nanoTime();
        var at = clock.instant();
        long timestamp = at.getEpochSecond();
        HttpRequest request = HttpRequest.newBuilder(URI.create(delivery.url()))
                .timeout(readTimeout)
                .header("content-type", "application/json")
                .header("user-agent", "paddle-jobs")
                .header("webhook-id", delivery.id())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", Signatures.sign(secret, delivery.id(), timestamp, delivery.body()))
                .POST(HttpRequest.BodyPublishers.ofString(delivery.body(), StandardCharsets.UTF_8))
                .build();
        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(request, info -> new CappedBody(maxAnswer));
        try {
            HttpResponse<String> response = answer.get(readTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return new Delivery.Try(at, response.statusCode(), response.body(), millisSince(begun));
        } catch (TimeoutException e) {
            answer.cancel(true);
            return noAnswer(at, begun);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof HttpTimeoutException && !(cause instanceof HttpConnectTimeoutException)) {
                return noAnswer(at, begun); // the client's own deadline, the same as ours
            }
            return new Delivery.Try(at, null, "not sent: " + cause, millisSince(begun));
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            return new Delivery.Try(at, null, "not sent: the service is stopping", millisSince(begun));
        }
    }

    private Delivery.Try noAnswer(java.time.Instant at, long begun) {
        return new Delivery.Try(at, null, "no answer within " + readTimeout.toMillis() + " ms", millisSince(begun));
    }

    private static long millisSince(long begun) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begun);
    }

    /** The answer's first bytes as text; the rest is not read (the connection is given up on). */
    private static final class CappedBody implements HttpResponse.BodySubscriber<String> {

        private final int cap;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<String> body = new CompletableFuture<>();
        private Flow.Subscription subscription;

        CappedBody(int cap) {
            this.cap = cap;
        }

        @Override
        public CompletionStage<String> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer item : items) {
                byte[] chunk = new byte[Math.min(item.remaining(), cap - bytes.size())];
                item.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
            if (bytes.size() >= cap) {
                subscription.cancel();
                complete();
            } else {
                subscription.request(1);
            }
        }

        @Override
        public void onError(Throwable error) {
            body.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            complete();
        }

        private void complete() {
            body.complete(bytes.toString(StandardCharsets.UTF_8));
        }
    }
}

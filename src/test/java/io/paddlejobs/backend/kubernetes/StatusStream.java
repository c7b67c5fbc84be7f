package io.paddlejobs.backend.kubernetes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/** One open status stream ({@code Accept: text/event-stream}) of a job, read on a thread of its own: when it opened and when its end event came. */
final class StatusStream {

    private final String job;
    private volatile boolean opened;
    private volatile Long endSeen;
    private volatile Future<?> reading;

    private StatusStream(String job) {
        this.job = job;
    }

    static StatusStream open(HttpClient http, String url, String job, ExecutorService threads) {
        StatusStream stream = new StatusStream(job);
        stream.reading = threads.submit(() -> {
            HttpResponse<Stream<String>> response = http.send(HttpRequest.newBuilder(URI.create(url))
                    .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
            try (Stream<String> lines = response.body()) {
                lines.forEach(stream::line);
            }
            return null;
        });
        return stream;
    }

    private void line(String line) {
        if (line.equals("event:status")) {
            opened = true;
        } else if (line.equals("event:end") && endSeen == null) {
            endSeen = System.nanoTime();
        }
    }

    String job() {
        return job;
    }

    boolean opened() {
        return opened;
    }

    /** When its end event came (by {@link System#nanoTime}). */
    Optional<Long> endSeen() {
        return Optional.ofNullable(endSeen);
    }

    void close() {
        reading.cancel(true);
    }
}

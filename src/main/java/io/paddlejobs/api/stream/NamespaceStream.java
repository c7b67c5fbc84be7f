package io.paddlejobs.api.stream;

import io.paddlejobs.api.JobSummary;
import io.paddlejobs.api.SerializedJobs;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobQuery;
import io.paddlejobs.job.JobWatcher;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One {@code GET /jobs?watch=true} stream: a {@code job} event (the list's line for it) for every
 * change of a job the query matches, {@code deleted} when a job went or stopped matching, a comment
 * every 15 seconds while nothing happens, and {@code end} when its time is up. Called on the
 * {@link JobFeed}'s pool, one call at a time.
 */
final class NamespaceStream implements JobWatcher {

    private static final int KEEP_ALIVE_EVERY_SECONDS = 15;

    private final JobQuery query;
    private final SseEmitter emitter;
    private final SerializedJobs serialized;
    private final Function<JobKey, String> statusUrls;
    private final Integer timeoutSeconds;
    private final Consumer<NamespaceStream> onEnd;
    private final AtomicBoolean ended = new AtomicBoolean();
    private int seconds;

    /** @param timeoutSeconds when the stream ends by itself; null: when the client goes */
    NamespaceStream(JobQuery query, SseEmitter emitter, SerializedJobs serialized, Function<JobKey, String> statusUrls,
                    Integer timeoutSeconds, Consumer<NamespaceStream> onEnd) {
        this.query = query;
        this.emitter = emitter;
        this.serialized = serialized;
        this.statusUrls = statusUrls;
        this.timeoutSeconds = timeoutSeconds;
        this.onEnd = onEnd;
    }

    @Override
    public void changed(JobKey key, Job job) {
        if (ended.get()) {
            return;
        }
        try {
            if (job != null && query.matches(job)) {
                String line = serialized.summary(JobSummary.of(job, statusUrls));
                emitter.send(SseEmitter.event().name("job").id(key.name()).data(line, MediaType.APPLICATION_JSON));
            } else {
                emitter.send(SseEmitter.event().name("deleted").id(key.name())
                        .data(Map.of("name", key.name(), "namespace", key.namespace()), MediaType.APPLICATION_JSON));
            }
        } catch (IOException | IllegalStateException e) {
            stop();
            emitter.completeWithError(e);
        }
    }

    @Override
    public void everySecond() {
        if (ended.get()) {
            return;
        }
        seconds++;
        try {
            if (timeoutSeconds != null && seconds >= timeoutSeconds) {
                emitter.send(SseEmitter.event().name("end").data("timeout"));
                closed();
            } else if (seconds % KEEP_ALIVE_EVERY_SECONDS == 0) {
                emitter.send(SseEmitter.event().comment("still here"));
            }
        } catch (IOException | IllegalStateException e) {
            stop();
            emitter.completeWithError(e);
        }
    }

    @Override
    public void closed() {
        stop();
        emitter.complete();
    }

    /** Its client stopped reading: it ends without another write, which would block as the last one does. */
    @Override
    public void abandoned() {
        stop();
    }

    /** The client went away (or the container gave up on it). */
    void stop() {
        if (ended.compareAndSet(false, true)) {
            onEnd.accept(this);
        }
    }
}

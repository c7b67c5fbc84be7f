package io.paddlejobs.api.stream;

import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobService;
import io.paddlejobs.problem.ProblemType;
import java.io.IOException;
import java.util.function.Function;
import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Every Server-Sent Events stream the service serves (status streams and watches), opened one way:
 * a slot of the caller's ({@link StreamProperties}: one limit in all and one per caller, whatever
 * the kind; past them a 429 or 503 problem of type {@link ProblemType#TOO_MANY_STREAMS} with
 * {@code Retry-After}), an emitter with no time limit, the first write on the request's thread,
 * then the watch on the {@link JobFeed}; whichever way the stream ends, its watch and slot go.
 */
@Component
class EventStreams {

    /** No async timeout: a stream ends with its job or its own timeout, or when the client goes. */
    private static final long NO_TIMEOUT = 0L;

    private final JobFeed feed;
    private final StreamSlots slots;

    EventStreams(JobFeed feed, StreamProperties settings) {
        this.feed = feed;
        this.slots = new StreamSlots(limits(settings));
    }

    /** One count for every kind of event stream: what decides memory is how many are open, not which. */
    static StreamSlots.Limits limits(StreamProperties settings) {
        return new StreamSlots.Limits("event streams", ProblemType.TOO_MANY_STREAMS, "Too many streams",
                settings.maxOpenPerUser(), "paddlejobs.streams.max-open-per-user",
                settings.maxOpen(), "paddlejobs.streams.max-open");
    }

    /** The feed the streams watch, with their share of its senders. */
    @Bean
    static JobFeed jobFeed(JobService jobs, StreamProperties settings) {
        settings.requireFairShare();
        return new JobFeed(jobs, settings.maxOpen(), settings.sendersPerUser(), settings.sendTimeout());
    }

    /**
     * @param instead what the caller may do when refused, as the refusal says ("poll the list instead")
     * @throws org.springframework.web.ErrorResponseException 429 or 503 when as many streams as allowed are open
     */
    SseEmitter open(String user, String instead, Function<SseEmitter, EventStream> opening) {
        Runnable release = slots.take(user, instead);
        EventStream stream;
        SseEmitter emitter = new SseEmitter(NO_TIMEOUT);
        try {
            stream = opening.apply(emitter);
        } catch (RuntimeException e) {
            release.run();
            throw e;
        }
        stream.whenEnded(() -> {
            stream.unwatch(feed);
            release.run();
        });
        emitter.onCompletion(stream::stop);
        emitter.onError(error -> stream.stop());
        emitter.onTimeout(stream::stop);
        // The first write is made here, on the request's thread, before the emitter is returned: the
        // response's headers are then written while the request thread still owns it. Sent first
        // from another thread, it raced the filters still writing headers on the request thread
        // (Tomcat's headers are not thread-safe: a stream now and then failed with a 500). Without
        // it, the client's open would wait for the first change.
        try {
            stream.sendFirst();
        } catch (IOException e) {
            stream.stop(); // the client went already
        }
        // A first write that failed has ended it: nothing to watch for. The container calls back
        // (stop) only once this method has returned: never before the watch.
        if (!stream.ended()) {
            stream.watch(feed, user);
        }
        return emitter;
    }
}

package io.paddlejobs.api.stream;

import io.paddlejobs.api.SerializedJobs;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.security.SecurityProperties;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Pushes a job's status and new metrics points to a page as Server-Sent Events: {@code status}
 * when the status changes (from the {@link JobFeed}, as soon as it sees it), {@code metrics} with
 * the points added since the last event (the body of {@code GET …/metrics?since=}, looked at every
 * second), then {@code end} once the job has finished and nothing new came. A stream holds no
 * thread while it waits; at most {@code paddlejobs.security.streams.max-per-user} of one caller's
 * are open at once ({@code max-total} in all), beyond that the page is refused and polls instead.
 */
@Component
class StatusEvents {

    private final JobFeed feed;
    private final MetricsCollector metrics;
    private final SerializedJobs serialized;
    private final StreamSlots slots;

    StatusEvents(JobFeed feed, MetricsCollector metrics, SerializedJobs serialized, SecurityProperties security) {
        this.feed = feed;
        this.metrics = metrics;
        this.serialized = serialized;
        this.slots = new StreamSlots("status streams", "poll the status URL instead",
                security.streams().maxPerUser(), security.streams().maxTotal());
    }

    /** @throws org.springframework.web.ErrorResponseException 429 or 503 when as many streams as allowed are open */
    SseEmitter stream(Job job, String user) {
        JobKey key = job.key();
        Runnable release = slots.take(user);
        SseEmitter emitter = new SseEmitter(0L); // no time limit: it ends with the job, or when the page goes
        StatusStream stream = new StatusStream(emitter, metrics, serialized, ended -> {
            feed.unwatchJob(key, ended);
            release.run();
        });
        emitter.onCompletion(stream::stop);
        emitter.onError(error -> stream.stop());
        emitter.onTimeout(stream::stop);
        // The first event is sent here, on the request's thread, before the emitter is returned: the
        // response's headers are then written while the request thread still owns it. Sent first
        // from another thread, it raced the filters still writing headers on the request thread
        // (Tomcat's headers are not thread-safe: a stream now and then failed with a 500).
        stream.changed(key, job);
        if (!stream.ended()) { // a first send that failed has ended it: nothing to watch for
            feed.watchJob(key, stream, user);
        }
        return emitter;
    }
}

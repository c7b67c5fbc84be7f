package io.paddlejobs.api.stream;

import io.paddlejobs.api.SerializedJobs;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.Progress;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsSnapshot;
import io.paddlejobs.metrics.MetricsView;
import java.io.IOException;
import java.util.Objects;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One page's status stream: {@code status} when the status changes (from the {@link JobFeed}, as
 * soon as it sees it), {@code metrics} with the points added since the last event (the body of
 * {@code GET …/metrics?since=}, looked at every second, also when only the progress moved), then {@code end} once the job has
 * finished and its metrics are {@link MetricsSnapshot#complete complete}; {@code gone} when it is deleted.
 */
final class StatusStream extends EventStream {

    private final Job opened;
    private final JobKey key;
    private final MetricsCollector metrics;
    private final SerializedJobs serialized;
    /** As last sent; null before the first event. */
    private Job job;
    private long cursor;
    private Progress progress;
    /** The last read of the metrics was of a finished job, and had all its trainers wrote. */
    private boolean complete;

    /** @param opened the job as it is when the stream opens: its first event */
    StatusStream(Job opened, SseEmitter emitter, MetricsCollector metrics, SerializedJobs serialized) {
        super(emitter);
        this.opened = opened;
        this.key = opened.key();
        this.metrics = metrics;
        this.serialized = serialized;
    }

    @Override
    void sendFirst() {
        changed(key, opened);
    }

    @Override
    void watch(JobFeed feed, String user) {
        feed.watchJob(key, this, user);
    }

    @Override
    void unwatch(JobFeed feed) {
        feed.unwatchJob(key, this);
    }

    @Override
    public void changed(JobKey key, Job now) {
        writing(() -> {
            if (now == null) {
                emitter.send(SseEmitter.event().name("gone").data("deleted"));
                end();
                return;
            }
            boolean first = job == null;
            if (!first && now.status().equals(job.status())) {
                return; // the feed's first look at a job this stream has just sent
            }
            job = now;
            emitter.send(SseEmitter.event().name("status").data(serialized.status(now), MediaType.APPLICATION_JSON));
            if (first) {
                sendMetrics(true);
            }
        });
    }

    @Override
    boolean everySecond(int seconds) throws IOException {
        if (job == null) {
            return false;
        }
        boolean fresh = sendMetrics(false);
        if (complete) { // the read just sent, or the one before, had every point: nothing more will come
            emitter.send(SseEmitter.event().name("end").data(job.status().phase().wireName()));
            end();
            return true;
        }
        return fresh;
    }

    private boolean sendMetrics(boolean evenIfNone) throws IOException {
        MetricsSnapshot read = metrics.read(job, cursor);
        cursor = read.cursor();
        // A trainer may report only its step and total_steps: no points, but progress all the same. The last
        // event says the metrics are complete, as a read of …/metrics then would.
        boolean fresh = !read.metrics().isEmpty() || !Objects.equals(read.progress(), progress)
                || read.complete() != complete;
        progress = read.progress();
        complete = read.complete();
        if (!fresh && !evenIfNone) {
            return false;
        }
        MetricsView view = MetricsView.of(job.plan().name(), job.plan().namespace(), read);
        emitter.send(SseEmitter.event().name("metrics").data(view, MediaType.APPLICATION_JSON));
        return fresh;
    }
}

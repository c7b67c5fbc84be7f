package io.paddlejobs.api.stream;

import io.paddlejobs.api.MetricsView;
import io.paddlejobs.api.SerializedJobs;
import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobWatcher;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsSnapshot;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** One page's status stream (see {@link StatusEvents}); called on the {@link JobFeed}'s pool, one call at a time. */
final class StatusStream implements JobWatcher {

    // A comment now and then finds out that a page went away while the job was quiet.
    private static final int KEEP_ALIVE_EVERY_SECONDS = 15;

    private final SseEmitter emitter;
    private final MetricsCollector metrics;
    private final SerializedJobs serialized;
    private final Consumer<StatusStream> onEnd;
    private final AtomicBoolean ended = new AtomicBoolean();
    private Job job;
    private long cursor;
    private int seconds;

    StatusStream(SseEmitter emitter, MetricsCollector metrics, SerializedJobs serialized, Consumer<StatusStream> onEnd) {
        this.emitter = emitter;
        this.metrics = metrics;
        this.serialized = serialized;
        this.onEnd = onEnd;
    }

    @Override
    public void changed(JobKey key, Job now) {
        if (ended.get()) {
            return;
        }
        try {
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
        } catch (IOException | IllegalStateException e) {
            fail(e);
        }
    }

    @Override
    public void everySecond() {
        if (ended.get() || job == null) {
            return;
        }
        try {
            boolean fresh = sendMetrics(false);
            if (job.status().phase().isFinished() && !fresh) {
                emitter.send(SseEmitter.event().name("end").data(job.status().phase().wireName()));
                end();
            } else if (++seconds % KEEP_ALIVE_EVERY_SECONDS == 0) {
                emitter.send(SseEmitter.event().comment("still here"));
            }
        } catch (IOException | IllegalStateException e) {
            fail(e);
        }
    }

    @Override
    public void closed() {
        end();
    }

    boolean ended() {
        return ended.get();
    }

    /** Its client stopped reading: it ends without another write, which would block as the last one does. */
    @Override
    public void abandoned() {
        stop();
    }

    /** The page went away (or the container gave up on it). */
    void stop() {
        if (ended.compareAndSet(false, true)) {
            onEnd.accept(this);
        }
    }

    private boolean sendMetrics(boolean evenIfNone) throws IOException {
        MetricsSnapshot read = metrics.read(job, cursor);
        cursor = read.cursor();
        if (read.metrics().isEmpty() && !evenIfNone) {
            return false;
        }
        MetricsView view = MetricsView.of(job.plan().name(), job.plan().namespace(), read);
        emitter.send(SseEmitter.event().name("metrics").data(view, MediaType.APPLICATION_JSON));
        return !read.metrics().isEmpty();
    }

    private void end() {
        stop();
        emitter.complete();
    }

    private void fail(Exception e) {
        stop();
        emitter.completeWithError(e);
    }
}

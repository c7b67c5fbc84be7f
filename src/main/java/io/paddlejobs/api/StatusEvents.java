package io.paddlejobs.api;

import io.paddlejobs.job.Job;
import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobService;
import io.paddlejobs.job.JobStatus;
import io.paddlejobs.metrics.MetricsCollector;
import io.paddlejobs.metrics.MetricsSnapshot;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Pushes a job's status and new metrics points to a page as Server-Sent Events: {@code status}
 * when the status changes, {@code metrics} with the points added since the last event (the body
 * of {@code GET …/metrics?since=}), then {@code end} once the job has finished and nothing new came.
 * Each stream looks every second on a thread of its own, at most {@link #MAX_STREAMS} at once;
 * beyond that the page is refused and polls instead.
 */
@Component
class StatusEvents implements AutoCloseable {

    static final int MAX_STREAMS = 64;
    private static final Duration LOOK_EVERY = Duration.ofSeconds(1);
    // A comment now and then finds out that a page went away while the job was quiet.
    private static final int KEEP_ALIVE_EVERY_LOOKS = 15;

    private final JobService jobs;
    private final MetricsCollector metrics;
    private final Semaphore streams = new Semaphore(MAX_STREAMS);
    private final SimpleAsyncTaskExecutor threads = new SimpleAsyncTaskExecutor("status-events-");

    StatusEvents(JobService jobs, MetricsCollector metrics) {
        this.jobs = jobs;
        this.metrics = metrics;
        threads.setVirtualThreads(Runtime.version().feature() >= 21);
        threads.setDaemon(true);
        threads.setTaskTerminationTimeout(1000);
    }

    /** @return empty when as many streams as allowed are open */
    Optional<SseEmitter> stream(JobKey key) {
        if (!streams.tryAcquire()) {
            return Optional.empty();
        }
        SseEmitter emitter = new SseEmitter(0L); // no time limit: it ends with the job, or when the page goes
        try {
            threads.execute(() -> {
                try {
                    push(key, emitter);
                } finally {
                    streams.release();
                }
            });
        } catch (RuntimeException e) {
            streams.release();
            throw e;
        }
        return Optional.of(emitter);
    }

    private void push(JobKey key, SseEmitter emitter) {
        JobStatus sent = null;
        long cursor = 0;
        int looks = 0;
        try {
            while (true) {
                Optional<Job> job = jobs.find(key);
                if (job.isEmpty()) {
                    emitter.send(SseEmitter.event().name("gone").data("deleted"));
                    break;
                }
                boolean fresh = false;
                JobStatus status = job.get().status();
                if (!status.equals(sent)) {
                    emitter.send(SseEmitter.event().name("status").data(status, MediaType.APPLICATION_JSON));
                    sent = status;
                    fresh = true;
                }
                MetricsSnapshot read = metrics.read(job.get(), cursor);
                cursor = read.cursor();
                if (!read.metrics().isEmpty() || looks == 0) {
                    MetricsView view = MetricsView.of(key.name(), key.namespace(), read);
                    emitter.send(SseEmitter.event().name("metrics").data(view, MediaType.APPLICATION_JSON));
                    fresh = true;
                }
                if (status.phase().isFinished() && !fresh) {
                    emitter.send(SseEmitter.event().name("end").data(status.phase().wireName()));
                    break;
                }
                if (++looks % KEEP_ALIVE_EVERY_LOOKS == 0) {
                    emitter.send(SseEmitter.event().comment("still here"));
                }
                Thread.sleep(LOOK_EVERY.toMillis());
            }
            emitter.complete();
        } catch (IOException | IllegalStateException e) {
            emitter.completeWithError(e); // the page went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            emitter.complete();
        }
    }

    @Override
    public void close() {
        threads.close();
    }
}

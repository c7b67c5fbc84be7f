package io.paddlejobs.api.stream;

import io.paddlejobs.job.JobFeed;
import io.paddlejobs.job.JobWatcher;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One open Server-Sent Events stream that watches the {@link JobFeed}: what every kind shares (how it
 * ends, the keep-alive), so that each kind says only what it sends. Opened by {@link EventStreams},
 * which holds its slot; called on the feed's pool, one call at a time.
 */
abstract sealed class EventStream implements JobWatcher permits StatusStream, NamespaceStream {

    /** A comment this often, while nothing else is sent, finds out that a client went while its job was quiet. */
    static final int KEEP_ALIVE_EVERY_SECONDS = 15;

    /** A write to the client, which fails when the client went. */
    @FunctionalInterface
    interface Write {
        void run() throws IOException;
    }

    final SseEmitter emitter;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Runnable onEnd = () -> {
    };
    private int seconds;

    EventStream(SseEmitter emitter) {
        this.emitter = emitter;
    }

    /** The first write, made on the request's thread before any other may send (see {@link EventStreams#open}). */
    abstract void sendFirst() throws IOException;

    abstract void watch(JobFeed feed, String user);

    abstract void unwatch(JobFeed feed);

    /**
     * What it sends once a second, if anything.
     *
     * @param seconds how many seconds it has been open
     * @return whether it wrote (or ended): no keep-alive is due then
     */
    abstract boolean everySecond(int seconds) throws IOException;

    @Override
    public final void everySecond() {
        writing(() -> {
            seconds++;
            if (!everySecond(seconds) && !ended() && seconds % KEEP_ALIVE_EVERY_SECONDS == 0) {
                emitter.send(SseEmitter.event().comment("still here"));
            }
        });
    }

    /** Runs the write unless the stream has ended; one that fails ends it with the error. */
    final void writing(Write write) {
        if (ended()) {
            return;
        }
        try {
            write.run();
        } catch (IOException | IllegalStateException e) {
            stop();
            emitter.completeWithError(e);
        }
    }

    @Override
    public final void closed() {
        end();
    }

    /** Its client stopped reading: it ends without another write, which would block as the last one does. */
    @Override
    public final void abandoned() {
        stop();
    }

    final boolean ended() {
        return ended.get();
    }

    /** What ends with the stream (its watch, its slot); set before the stream can end. */
    final void whenEnded(Runnable onEnd) {
        this.onEnd = onEnd;
    }

    /** The client went away (or the container gave up on it). */
    final void stop() {
        if (ended.compareAndSet(false, true)) {
            onEnd.run();
        }
    }

    /** Ends the response: the stream is over. */
    final void end() {
        stop();
        emitter.complete();
    }
}

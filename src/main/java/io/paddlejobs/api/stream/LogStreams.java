package io.paddlejobs.api.stream;

import io.paddlejobs.problem.ProblemType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Serves log responses on threads of their own, never Spring's shared task executor: at most
 * {@code paddlejobs.streams.logs.max-open} at once, and {@code max-open-per-user} of one caller
 * (counted as {@link EventStreams} counts its streams, past them a 429 or 503 problem), so that
 * slow or endless readers of one tenant cannot hold up the others (on JDK 17 as on 21+, where they
 * are virtual threads). Output is sent as it is written, each chunk flushed, with no time limit:
 * a follow stays open until the replica ends.
 */
@Component
class LogStreams implements DisposableBean {

    private static final MediaType TEXT = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);
    private static final int SEND_THRESHOLD = 64 * 1024;
    /** No async timeout: the stream ends with the replica (or when the client goes). */
    private static final long NO_TIMEOUT = -1L;

    private final ExecutorService threads = threads();
    private final StreamSlots slots;

    LogStreams(StreamProperties settings) {
        this.slots = new StreamSlots(new StreamSlots.Limits("log streams",
                ProblemType.TOO_MANY_LOG_STREAMS, "Too many log streams",
                settings.logs().maxOpenPerUser(), "paddlejobs.streams.logs.max-open-per-user",
                settings.logs().maxOpen(), "paddlejobs.streams.logs.max-open"));
    }

    ResponseEntity<ResponseBodyEmitter> stream(String user, StreamingResponseBody body) {
        return stream(user, body, TEXT, () -> { });
    }

    /**
     * @param type    what the body is
     * @param onError told when the body could not be written whole (the client went away): what it reads from is
     *                to be stopped
     */
    ResponseEntity<ResponseBodyEmitter> stream(String user, StreamingResponseBody body, MediaType type,
                                               Runnable onError) {
        Runnable release = slots.take(user, "ask again in a moment");
        ResponseBodyEmitter emitter = new ResponseBodyEmitter(NO_TIMEOUT);
        try {
            threads.execute(() -> {
                try (EmitterStream out = new EmitterStream(emitter, type)) {
                    body.writeTo(out);
                    out.flush();
                    emitter.complete();
                } catch (IOException | RuntimeException e) {
                    onError.run();
                    emitter.completeWithError(e);
                } finally {
                    release.run();
                }
            });
        } catch (RuntimeException rejected) {
            release.run();
            throw rejected;
        }
        return ResponseEntity.ok().contentType(type).body(emitter);
    }

    /** Virtual threads where the JDK has them (21+), else a thread per stream; the semaphore bounds both. */
    private static ExecutorService threads() {
        try {
            Method virtual = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
            return (ExecutorService) virtual.invoke(null);
        } catch (ReflectiveOperationException olderJdk) {
            AtomicInteger count = new AtomicInteger();
            ThreadFactory factory = task -> {
                Thread thread = new Thread(task, "log-stream-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            };
            return Executors.newCachedThreadPool(factory);
        }
    }

    @Override
    public void destroy() {
        threads.shutdownNow();
    }

    /** Buffers small writes and sends them, flushed to the client, on {@link #flush()} or when large. */
    private static final class EmitterStream extends OutputStream {

        private final ResponseBodyEmitter emitter;
        private final MediaType type;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        EmitterStream(ResponseBodyEmitter emitter, MediaType type) {
            this.emitter = emitter;
            this.type = type;
        }

        @Override
        public void write(int b) throws IOException {
            pending.write(b);
            sendIfLarge();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            pending.write(b, off, len);
            sendIfLarge();
        }

        private void sendIfLarge() throws IOException {
            if (pending.size() >= SEND_THRESHOLD) {
                flush();
            }
        }

        @Override
        public void flush() throws IOException {
            if (pending.size() > 0) {
                emitter.send(pending.toByteArray(), type);
                pending.reset();
            }
        }
    }
}

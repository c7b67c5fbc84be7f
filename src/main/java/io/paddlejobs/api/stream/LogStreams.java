package io.paddlejobs.api.stream;

import io.paddlejobs.problem.ProblemType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Serves log responses on threads of their own, never Spring's shared task executor: at most
 * {@code paddlejobs.logs.max-streams} at once, and {@code max-streams-per-user} of one caller, so
 * that slow or endless readers of one tenant cannot hold up the others (on JDK 17 as on 21+, where
 * they are virtual threads). Output is sent as it is written, each chunk flushed, with no time
 * limit: a follow stays open until the replica ends.
 */
@Component
class LogStreams implements DisposableBean {

    private static final MediaType TEXT = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);
    private static final int SEND_THRESHOLD = 64 * 1024;
    /** No async timeout: the stream ends with the replica (or when the client goes). */
    private static final long NO_TIMEOUT = -1L;

    private final ExecutorService threads = threads();
    private final Semaphore streams;
    private final int perUser;
    private final ConcurrentHashMap<String, AtomicInteger> byUser = new ConcurrentHashMap<>();

    LogStreams(@Value("${paddlejobs.logs.max-streams:256}") int maxStreams,
               @Value("${paddlejobs.logs.max-streams-per-user:32}") int maxStreamsPerUser) {
        this.streams = new Semaphore(maxStreams);
        this.perUser = maxStreamsPerUser;
    }

    ResponseEntity<ResponseBodyEmitter> stream(String user, StreamingResponseBody body) {
        AtomicInteger mine = byUser.computeIfAbsent(user, u -> new AtomicInteger());
        if (mine.incrementAndGet() > perUser) {
            mine.decrementAndGet();
            throw busy(HttpStatus.TOO_MANY_REQUESTS, ("User '%s' already reads %d logs at once, the most allowed "
                    + "(paddlejobs.logs.max-streams-per-user); close one, then ask again.").formatted(user, perUser));
        }
        if (!streams.tryAcquire()) {
            mine.decrementAndGet();
            throw busy(HttpStatus.SERVICE_UNAVAILABLE, "The service already serves as many logs as it may at once "
                    + "(paddlejobs.logs.max-streams); ask again in a moment.");
        }
        ResponseBodyEmitter emitter = new ResponseBodyEmitter(NO_TIMEOUT);
        try {
            threads.execute(() -> {
                try (EmitterStream out = new EmitterStream(emitter)) {
                    body.writeTo(out);
                    out.flush();
                    emitter.complete();
                } catch (IOException | RuntimeException e) {
                    emitter.completeWithError(e);
                } finally {
                    streams.release();
                    mine.decrementAndGet();
                }
            });
        } catch (RuntimeException rejected) {
            streams.release();
            mine.decrementAndGet();
            throw rejected;
        }
        return ResponseEntity.ok().contentType(TEXT).body(emitter);
    }

    private static ErrorResponseException busy(HttpStatus status, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(ProblemType.TOO_MANY_LOG_STREAMS.uri());
        problem.setTitle("Too many log streams");
        ErrorResponseException e = new ErrorResponseException(status, problem, null);
        e.getHeaders().set(HttpHeaders.RETRY_AFTER, "5");
        return e;
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
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        EmitterStream(ResponseBodyEmitter emitter) {
            this.emitter = emitter;
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
                emitter.send(pending.toByteArray(), TEXT);
                pending.reset();
            }
        }
    }
}

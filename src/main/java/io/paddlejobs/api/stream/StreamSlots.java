package io.paddlejobs.api.stream;

import io.paddlejobs.problem.ProblemType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * How many streams of one kind are open: at most {@code perUser} of one caller (past it a 429
 * naming the caller and the limit, so that one tenant cannot take every slot) and {@code total}
 * in all (past it a 503).
 */
final class StreamSlots {

    private final String kind;
    private final String poll;
    private final int perUser;
    private final Semaphore total;
    private final int totalSlots;
    private final ConcurrentHashMap<String, AtomicInteger> byUser = new ConcurrentHashMap<>();

    /**
     * @param kind what is counted, as a refusal names it ("status streams")
     * @param poll what to do instead ("poll the status URL")
     */
    StreamSlots(String kind, String poll, int perUser, int total) {
        this.kind = kind;
        this.poll = poll;
        this.perUser = perUser;
        this.total = new Semaphore(total);
        this.totalSlots = total;
    }

    /** @return what gives the slot back, once however often it is run */
    Runnable take(String user) {
        AtomicInteger mine = byUser.computeIfAbsent(user, u -> new AtomicInteger());
        if (mine.incrementAndGet() > perUser) {
            mine.decrementAndGet();
            throw refused(HttpStatus.TOO_MANY_REQUESTS, "User '%s' already has %d %s open, the most one caller may "
                    + "(paddlejobs.security.streams.max-per-user); close one, or %s.", user, perUser, kind, poll);
        }
        if (!total.tryAcquire()) {
            mine.decrementAndGet();
            throw refused(HttpStatus.SERVICE_UNAVAILABLE, "The service already serves %2$d %3$s, the most it may "
                    + "(paddlejobs.security.streams.max-total); %4$s.", user, totalSlots, kind, poll);
        }
        AtomicBoolean held = new AtomicBoolean(true);
        return () -> {
            if (held.compareAndSet(true, false)) {
                total.release();
                mine.decrementAndGet();
            }
        };
    }

    private static ErrorResponseException refused(HttpStatus status, String detail, Object... args) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail.formatted(args));
        problem.setType(ProblemType.TOO_MANY_STREAMS.uri());
        problem.setTitle("Too many streams");
        ErrorResponseException e = new ErrorResponseException(status, problem, null);
        e.getHeaders().set(HttpHeaders.RETRY_AFTER, "5");
        return e;
    }
}

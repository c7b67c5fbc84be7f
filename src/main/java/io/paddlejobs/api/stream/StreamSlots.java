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
 * in all (past it a 503). Both refusals are problem documents of the kind's type, with
 * {@code Retry-After}.
 */
final class StreamSlots {

    /**
     * One kind of stream and its limits.
     *
     * @param kind        what is counted, as a refusal names it ("event streams")
     * @param type        the refusals' problem type
     * @param title       the refusals' title
     * @param perUser     open at once per caller
     * @param perUserKey  the setting of {@code perUser}, as a refusal names it
     * @param total       open at once in all
     * @param totalKey    the setting of {@code total}
     */
    record Limits(String kind, ProblemType type, String title, int perUser, String perUserKey, int total, String totalKey) {
    }

    private final Limits limits;
    private final Semaphore total;
    private final ConcurrentHashMap<String, AtomicInteger> byUser = new ConcurrentHashMap<>();

    StreamSlots(Limits limits) {
        this.limits = limits;
        this.total = new Semaphore(limits.total());
    }

    /**
     * @param instead what the caller may do instead, as a refusal says ("poll the list instead")
     * @return what gives the slot back, once however often it is run
     */
    Runnable take(String user, String instead) {
        AtomicInteger mine = byUser.computeIfAbsent(user, u -> new AtomicInteger());
        if (mine.incrementAndGet() > limits.perUser()) {
            mine.decrementAndGet();
            throw refused(HttpStatus.TOO_MANY_REQUESTS, "User '%s' already has %d %s open, the most one caller may "
                    + "(%s); close one, or %s.", user, limits.perUser(), limits.kind(), limits.perUserKey(), instead);
        }
        if (!total.tryAcquire()) {
            mine.decrementAndGet();
            throw refused(HttpStatus.SERVICE_UNAVAILABLE, "The service already serves %d %s, the most it may (%s); %s.",
                    limits.total(), limits.kind(), limits.totalKey(), instead);
        }
        AtomicBoolean held = new AtomicBoolean(true);
        return () -> {
            if (held.compareAndSet(true, false)) {
                total.release();
                mine.decrementAndGet();
            }
        };
    }

    private ErrorResponseException refused(HttpStatus status, String detail, Object... args) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail.formatted(args));
        problem.setType(limits.type().uri());
        problem.setTitle(limits.title());
        ErrorResponseException e = new ErrorResponseException(status, problem, null);
        e.getHeaders().set(HttpHeaders.RETRY_AFTER, "5");
        return e;
    }
}

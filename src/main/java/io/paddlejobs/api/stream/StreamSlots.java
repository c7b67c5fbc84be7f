package io.paddlejobs.api.stream;

import io.paddlejobs.problem.ProblemType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * How many streams of one kind are open: at most {@code perUser} of one caller (past it a 429
 * naming the caller and the limit, so that one tenant cannot take every slot) and {@code total}
 * in all (past it a 503). A few tenants each at their own cap would still reach the total, so the last
 * quarter of it is kept for callers holding fewer than {@link #FEW} streams of the kind: a caller holding
 * that many takes no slot past three quarters of the total (a 429 that says so). All refusals are problem
 * documents of the kind's type, with {@code Retry-After}.
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

    /** A caller holding this many streams of a kind is a heavy user of it: a page or two, a watch, hold fewer. */
    static final int FEW = 2;

    private final Limits limits;
    /** Slots only callers holding fewer than {@link #FEW} may take. */
    private final int kept;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<String, AtomicInteger> byUser = new ConcurrentHashMap<>();

    StreamSlots(Limits limits) {
        this.limits = limits;
        this.kept = limits.total() / 4;
    }

    /**
     * @param instead what the caller may do instead, as a refusal says ("poll the list instead")
     * @return what gives the slot back, once however often it is run
     */
    Runnable take(String user, String instead) {
        AtomicInteger mine = byUser.computeIfAbsent(user, u -> new AtomicInteger());
        int holding = mine.incrementAndGet(); // counting this one
        if (holding > limits.perUser()) {
            mine.decrementAndGet();
            throw refused(HttpStatus.TOO_MANY_REQUESTS, "User '%s' already has %d %s open, the most one caller may "
                    + "(%s); close one, or %s.", user, limits.perUser(), limits.kind(), limits.perUserKey(), instead);
        }
        boolean heavy = holding > FEW;
        int ceiling = heavy ? limits.total() - kept : limits.total();
        int before = open.getAndUpdate(n -> n < ceiling ? n + 1 : n);
        if (before >= ceiling) {
            mine.decrementAndGet();
            if (heavy && before < limits.total()) {
                throw refused(HttpStatus.TOO_MANY_REQUESTS, "User '%s' already has %d %s open, and the service serves %d,"
                        + " past which its last %d (of %s, %d) are kept for callers with fewer than %d open; close one,"
                        + " or %s.", user, holding - 1, limits.kind(), before, kept, limits.totalKey(), limits.total(),
                        FEW, instead);
            }
            throw refused(HttpStatus.SERVICE_UNAVAILABLE, "The service already serves %d %s, the most it may (%s); %s.",
                    limits.total(), limits.kind(), limits.totalKey(), instead);
        }
        AtomicBoolean held = new AtomicBoolean(true);
        return () -> {
            if (held.compareAndSet(true, false)) {
                open.decrementAndGet();
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

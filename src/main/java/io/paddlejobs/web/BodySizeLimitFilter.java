package io.paddlejobs.web;

import io.paddlejobs.api.BodiesInProgressException;
import io.paddlejobs.api.BodyTooLargeException;
import io.paddlejobs.api.BodyTooSlowException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Caps request bodies at 64 KiB, answering 413 (code package uploads aside, which have limits of their own). A declared length is refused before reading; a
 * chunked body is cut off where it passes the cap, so a large one is never buffered. A body must
 * also arrive within {@code paddlejobs.web.request-body-timeout} (10 s) in all, else 408: Tomcat's
 * timeout is per read, so a client sending a byte every few seconds could hold a thread for ever.
 * The clock starts when the body is first read, not when the request came in (a loaded service may
 * take seconds to get there, which is not the client's doing), and a read that completes the body
 * is never refused: only waiting on a client that has not sent its body yet counts. One caller may be sending
 * at most {@code paddlejobs.web.max-bodies-per-caller} bodies at once, and all callers together
 * {@code max-bodies-in-progress} ({@link BodiesInProgress}); one more is answered 429 before it is read, and its
 * connection closed ({@link UnreadBodies}).
 */
@Component
public class BodySizeLimitFilter extends OncePerRequestFilter {

    public static final long LIMIT = 64 * 1024;

    private final JsonMapper json;
    private final Duration deadline;
    private final BodiesInProgress inProgress;

    BodySizeLimitFilter(JsonMapper json, WebProperties web) {
        this.json = json;
        this.deadline = web.requestBodyTimeout();
        this.inProgress = new BodiesInProgress(web.maxBodiesPerCaller(), web.maxBodiesInProgress());
    }

    /**
     * Code packages are archives with their own, larger limit ({@code paddlejobs.packages.max-size}),
     * and a floor on their rate instead of a deadline (a large one may take minutes): see the packages' UploadLimits.
     */
    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return "POST".equals(request.getMethod()) && "/packages".equals(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > LIMIT) {
            refuse(response, new BodyTooLargeException(LIMIT));
            return;
        }
        if (!hasBody(request)) {
            chain.doFilter(request, response);
            return;
        }
        String caller = caller(request);
        Optional<BodiesInProgress.Place> place = inProgress.enter(caller);
        if (place.isEmpty()) {
            request.setAttribute(UnreadBodies.BodiesInProgressMark.ATTRIBUTE, true);
            refuse(response, inProgress.atCallerLimit(caller)
                    ? BodiesInProgressException.ofCaller(caller, inProgress.perCaller())
                    : BodiesInProgressException.ofAllCallers(inProgress.total()));
            return;
        }
        try {
            chain.doFilter(new Capped(request, deadline, place.get()), response);
        } finally {
            place.get().leave();
        }
    }

    private void refuse(HttpServletResponse response, ErrorResponseException problem) throws IOException {
        response.setStatus(problem.getStatusCode().value());
        problem.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        // Written, not closed: the answer stays open for UnreadBodies to close its connection
        response.getOutputStream().write(json.writeValueAsBytes(problem.getBody()));
    }

    static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
    }

    /** Who sends: the signed-in user, else the client's address (mode none, or a request refused later for want of a token). */
    private static String caller(HttpServletRequest request) {
        Authentication signedIn = SecurityContextHolder.getContext().getAuthentication();
        return signedIn != null && signedIn.isAuthenticated() && !(signedIn instanceof AnonymousAuthenticationToken)
                ? "User '" + signedIn.getName() + "'" : "Address " + request.getRemoteAddr();
    }

    private static final class Capped extends HttpServletRequestWrapper {
        private ServletInputStream stream;
        private final Duration deadline;
        private final BodiesInProgress.Place place;

        Capped(HttpServletRequest request, Duration deadline, BodiesInProgress.Place place) {
            super(request);
            this.deadline = deadline;
            this.place = place;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CappedStream(super.getInputStream(), System.nanoTime() + deadline.toNanos(),
                        deadline.toSeconds(), place);
            }
            return stream;
        }
    }

    private static final class CappedStream extends ServletInputStream {
        private final ServletInputStream in;
        private final long deadlineNanos;
        private final long seconds;
        private final BodiesInProgress.Place place;
        private long read;

        CappedStream(ServletInputStream in, long deadlineNanos, long seconds, BodiesInProgress.Place place) {
            this.in = in;
            this.deadlineNanos = deadlineNanos;
            this.seconds = seconds;
            this.place = place;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            arrivedIfFinished(b);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            arrivedIfFinished(n);
            return n;
        }

        /** The body has arrived: its caller may send another while this request goes on (a streamed answer). */
        private void arrivedIfFinished(int read) {
            if (read < 0 || in.isFinished()) {
                place.leave();
            }
        }

        private void count(int n) {
            if (System.nanoTime() > deadlineNanos && !in.isFinished()) {
                throw new BodyTooSlowException(seconds);
            }
            read += n;
            if (read > LIMIT) {
                throw new BodyTooLargeException(LIMIT);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}

package io.paddlejobs.web;

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
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Caps request bodies at 64 KiB, answering 413 (code package uploads aside, which have limits of their own). A declared length is refused before reading; a
 * chunked body is cut off where it passes the cap, so a large one is never buffered. A body must
 * also arrive within {@code paddlejobs.web.request-body-timeout} (10 s) in all, else 408: Tomcat's
 * timeout is per read, so a client sending a byte every few seconds could hold a thread for ever.
 * The clock starts when the body is first read, not when the request came in (a loaded service may
 * take seconds to get there, which is not the client's doing), and a read that completes the body
 * is never refused: only waiting on a client that has not sent its body yet counts.
 */
@Component
public class BodySizeLimitFilter extends OncePerRequestFilter {

    public static final long LIMIT = 64 * 1024;

    private final JsonMapper json;
    private final Duration deadline;

    BodySizeLimitFilter(JsonMapper json, WebProperties web) {
        this.json = json;
        this.deadline = web.requestBodyTimeout();
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
            response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            json.writeValue(response.getOutputStream(), new BodyTooLargeException(LIMIT).getBody());
            return;
        }
        chain.doFilter(new Capped(request, deadline), response);
    }

    private static final class Capped extends HttpServletRequestWrapper {
        private ServletInputStream stream;
        private final Duration deadline;

        Capped(HttpServletRequest request, Duration deadline) {
            super(request);
            this.deadline = deadline;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CappedStream(super.getInputStream(), System.nanoTime() + deadline.toNanos(),
                        deadline.toSeconds());
            }
            return stream;
        }
    }

    private static final class CappedStream extends ServletInputStream {
        private final ServletInputStream in;
        private final long deadlineNanos;
        private final long seconds;
        private long read;

        CappedStream(ServletInputStream in, long deadlineNanos, long seconds) {
            this.in = in;
            this.deadlineNanos = deadlineNanos;
            this.seconds = seconds;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
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

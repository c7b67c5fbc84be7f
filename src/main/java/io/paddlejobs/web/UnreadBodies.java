package io.paddlejobs.web;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;
import org.apache.tomcat.util.net.ApplicationBufferHandler;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * The rest of a request's body that its answer did not read (a request refused before it was read: no token, not
 * allowed, over a limit). Tomcat reads it before the connection takes its next request, on the request's thread:
 * a client trickling such bodies would hold the threads the refusals were to spare. So such an answer closes its
 * connection ({@code Connection: close}) and is sent whole first; then a caller over its bodies in progress
 * ({@link BodiesInProgressMark}) has the connection closed unread, and of the others at most
 * {@code paddlejobs.web.max-bodies-per-caller} per address, and {@code max-bodies-in-progress} of all addresses,
 * have their bodies read to the end at once, each for at most {@code paddlejobs.web.request-body-timeout} (a user whose token is wrong may be uploading a package, and
 * should read why rather than see the connection reset); the rest are closed unread.
 *
 * <p>An engine valve, so that it runs after the host has rendered any error page: closing a connection unread marks
 * the exchange as failed, and a context valve doing so would have the host render an error page over the answer.
 * The body is read from Tomcat's connector request, beneath the servlet's stream: an answer written whole closes
 * that stream.
 */
@Component
class UnreadBodies implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    /** As Tomcat's own {@code maxSwallowSize}: past it a refused body is not worth reading. */
    private static final long MAX_READ_AFTER_ANSWER = 2 * 1024 * 1024;

    private final WebProperties web;

    UnreadBodies(WebProperties web) {
        this.web = web;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addEngineValves(new AfterAnswer(
                new BodiesInProgress(web.maxBodiesPerCaller(), web.maxBodiesInProgress()), web.requestBodyTimeout()));
    }

    /** Marks a request whose body is to be left unread, its connection closed: its caller sends too many at once. */
    static final class BodiesInProgressMark {
        static final String ATTRIBUTE = BodiesInProgressMark.class.getName();

        private BodiesInProgressMark() {
        }
    }

    static final class AfterAnswer extends ValveBase {

        /** Answers on which Tomcat closes the connection unread by itself (its {@code statusDropsConnection}). */
        private static final Set<Integer> DROPPING_CONNECTION = Set.of(400, 408, 411, 413, 414, 500, 501, 503);

        private final BodiesInProgress reading;
        private final Duration deadline;

        AfterAnswer(BodiesInProgress reading, Duration deadline) {
            super(true);
            this.reading = reading;
            this.deadline = deadline;
        }

        @Override
        public void invoke(Request request, Response response) throws IOException, ServletException {
            getNext().invoke(request, response);
            if (request.isAsyncStarted() || !BodySizeLimitFilter.hasBody(request)
                    || request.getCoyoteRequest().isFinished() || DROPPING_CONNECTION.contains(response.getStatus())) {
                return;
            }
            if (!response.isCommitted()) {
                response.setHeader(HttpHeaders.CONNECTION, "close"); // the client is not to send another on it
            }
            // The answer whole before anything else: the client may read it before it sends the rest, and marking
            // the exchange as failed (closing unread) must not turn an answer not yet sent into a 500.
            response.finishResponse();
            if (request.getAttribute(BodiesInProgressMark.ATTRIBUTE) != null || request.getCoyoteRequest().hasExpectation()
                    || request.getContentLengthLong() > MAX_READ_AFTER_ANSWER) {
                closeUnread(request); // a client awaiting 100 Continue sends no body: Tomcat closes as well
            } else {
                readToTheEndOrClose(request);
            }
        }

        private void readToTheEndOrClose(Request request) {
            Optional<BodiesInProgress.Place> place = reading.enter(request.getRemoteAddr());
            if (place.isEmpty()) {
                closeUnread(request);
                return;
            }
            try {
                if (!readToTheEnd(request.getCoyoteRequest(), System.nanoTime() + deadline.toNanos())) {
                    closeUnread(request);
                }
            } catch (IOException gone) {
                closeUnread(request);
            } finally {
                place.get().leave();
            }
        }

        /** @return whether the body ended within the bounds on its size and time */
        private static boolean readToTheEnd(org.apache.coyote.Request body, long deadlineNanos) throws IOException {
            Discarded chunk = new Discarded();
            long read = 0;
            for (int n = body.doRead(chunk); n >= 0; n = body.doRead(chunk)) {
                read += n;
                if (read > MAX_READ_AFTER_ANSWER || System.nanoTime() > deadlineNanos && !body.isFinished()) {
                    return false;
                }
            }
            return true;
        }

        private static void closeUnread(Request request) {
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }

    /** Where Tomcat hands each piece of a body read only to be dropped: it lends its own buffer. */
    private static final class Discarded implements ApplicationBufferHandler {
        private ByteBuffer buffer = EMPTY_BUFFER;

        @Override
        public void setByteBuffer(ByteBuffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public ByteBuffer getByteBuffer() {
            return buffer;
        }

        @Override
        public void expand(int size) {
            // the bytes are dropped: a small buffer does as well as a large one
        }
    }
}

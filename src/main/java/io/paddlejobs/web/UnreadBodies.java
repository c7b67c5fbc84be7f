package io.paddlejobs.web;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * The rest of a request's body that its answer did not read (a request refused before it was read: no token, not
 * allowed, over a limit). Tomcat reads it before the connection takes its next request, on the request's thread:
 * a client trickling such bodies would hold the threads the refusals were to spare. So such an answer closes its
 * connection ({@code Connection: close}); a caller over its bodies in progress ({@link BodiesInProgressMark}) has it
 * closed unread, and of the others at most {@code paddlejobs.web.max-bodies-per-caller} per address have their bodies
 * read to the end at once, the answer sent first (a user whose token is wrong may be uploading a package, and should
 * read why rather than see the connection reset); the rest are closed unread.
 */
@Component
class UnreadBodies implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    /** As Tomcat's own {@code maxSwallowSize}: past it a refused body is not worth reading. */
    private static final long MAX_READ_AFTER_ANSWER = 2 * 1024 * 1024;

    private final int perAddress;

    UnreadBodies(WebProperties web) {
        this.perAddress = web.maxBodiesPerCaller();
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextValves(new AfterAnswer(new BodiesInProgress(perAddress)));
    }

    /** Marks a request whose body is to be left unread, its connection closed: its caller sends too many at once. */
    static final class BodiesInProgressMark {
        static final String ATTRIBUTE = BodiesInProgressMark.class.getName();

        private BodiesInProgressMark() {
        }
    }

    static final class AfterAnswer extends ValveBase {

        private final BodiesInProgress reading;

        AfterAnswer(BodiesInProgress reading) {
            super(true);
            this.reading = reading;
        }

        @Override
        public void invoke(Request request, Response response) throws IOException, ServletException {
            getNext().invoke(request, response);
            if (request.isAsyncStarted() || !BodySizeLimitFilter.hasBody(request)
                    || request.getCoyoteRequest().isFinished()) {
                return;
            }
            if (!response.isCommitted()) {
                response.setHeader(HttpHeaders.CONNECTION, "close"); // the client is not to send another on it
            }
            if (request.getAttribute(BodiesInProgressMark.ATTRIBUTE) != null) {
                closeUnread(request);
            } else {
                readToTheEndOrClose(request, response);
            }
        }

        private void readToTheEndOrClose(Request request, Response response) throws IOException {
            Optional<BodiesInProgress.Place> place = reading.enter(request.getRemoteAddr());
            if (place.isEmpty()) {
                closeUnread(request);
                return;
            }
            try {
                response.flushBuffer(); // the answer first: a client may read it before it sends the rest
                if (!readToTheEnd(request.getStream())) {
                    closeUnread(request);
                }
            } catch (IOException | IllegalStateException gone) {
                closeUnread(request); // the client went away, or the application read the body as text
            } finally {
                place.get().leave();
            }
        }

        /** @return whether the body ended within the bound */
        private static boolean readToTheEnd(InputStream body) throws IOException {
            byte[] buffer = new byte[8192];
            long read = 0;
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                read += n;
                if (read > MAX_READ_AFTER_ANSWER) {
                    return false;
                }
            }
            return true;
        }

        private static void closeUnread(Request request) {
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }
}

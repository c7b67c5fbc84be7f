package io.paddlejobs.web;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * What each open connection costs in Tomcat, cut for long-lived event streams (status pages, watches):
 * each holds its connection's buffers as long as it is open. Measured with LocalPushBenchmark (the
 * service in its own JVM, a class histogram after a full collection), 1,000 open status streams:
 * 104 MiB with Tomcat's defaults, 57 MiB with these. Request headers are still read into a buffer of
 * {@code server.max-http-request-header-size} (8 KiB): the limit for callers stays as it was.
 */
@Component
public class LeanConnections implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    // The socket's own read and write buffers (8 KiB each by default): reads fill the request's
    // buffer directly, and writes larger than this go straight to the socket, so little is gained
    // by more; the request's read buffer is the header limit plus this.
    static final int SOCKET_BUFFER_BYTES = 1024;

    // Trailers after a chunked request body (8 KiB by default): Tomcat gives every connection a
    // buffer of this size up front, used or not. No client of ours sends trailers; a longer one is refused.
    public static final int TRAILER_BYTES = 1024;

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.setProtocol(LeanHttp11Protocol.class.getName());
        factory.addConnectorCustomizers(connector -> {
            connector.setProperty("socket.appReadBufSize", Integer.toString(SOCKET_BUFFER_BYTES));
            connector.setProperty("socket.appWriteBufSize", Integer.toString(SOCKET_BUFFER_BYTES));
            connector.setProperty("maxTrailerSize", Integer.toString(TRAILER_BYTES));
            // Tomcat keeps closed connections' channels for reuse, up to 1/32 of the heap, and with
            // them (a class histogram shows) their request processors: 1,000 streams closed still
            // held 94 MiB. Without that pool a new connection allocates 2 KiB of socket buffers.
            connector.setProperty("socket.bufferPool", "0");
        });
    }
}

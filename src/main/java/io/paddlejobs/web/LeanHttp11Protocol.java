package io.paddlejobs.web;

import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Tomcat's NIO HTTP/1.1 connector with a smaller response buffer. Each connection's response holds
 * a byte buffer of this size and a char buffer of as many chars (8 KiB + 16 KiB by default) for as
 * long as the response is open, which for an event stream is as long as the page is: 1,000 streams
 * held 24 MiB in them alone. A body larger than the buffer is sent as it is written (chunked) rather
 * than with a Content-Length. Public, with a public constructor: Tomcat creates it by its class name.
 */
public class LeanHttp11Protocol extends Http11NioProtocol {

    public static final int RESPONSE_BUFFER_BYTES = 2048;

    @Override
    public int getDesiredBufferSize() {
        return RESPONSE_BUFFER_BYTES;
    }
}

package io.paddlejobs.webhooks;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Makes one attempt of a delivery: a signed HTTP/1.1 POST over a connection of its own to one of the
 * addresses {@link AllowedTargets} checked (the name is not resolved again, so a DNS answer that changed
 * since cannot take it elsewhere; HTTPS still checks the certificate against the URL's host name). It
 * follows no redirect (a 3xx is an answer like any other: not delivered), reads at most
 * {@code maxAnswer} bytes of the answer's body, and gives up once the receiver has taken
 * {@code readTimeout} to answer, body included.
 */
final class Sender {

    /** The most of an answer's status line and headers that is read before the body. */
    private static final int MAX_HEAD = 16 * 1024;

    private final int connectMillis;
    private final Duration readTimeout;
    private final int maxAnswer;
    private final Clock clock;
    private final SSLSocketFactory tls;

    Sender(Duration connectTimeout, Duration readTimeout, int maxAnswer, Clock clock, SSLSocketFactory tls) {
        this.connectMillis = Math.toIntExact(connectTimeout.toMillis());
        this.readTimeout = readTimeout;
        this.maxAnswer = maxAnswer;
        this.clock = clock;
        this.tls = tls;
    }

    /** @param addresses where the URL's host was checked to be, tried in order until one connects */
    Delivery.Try attempt(Delivery delivery, String secret, List<InetAddress> addresses) {
        long begun = System.nanoTime();
        Instant at = clock.instant();
        URI uri = URI.create(delivery.url());
        boolean https = "https".equals(uri.getScheme());
        int port = uri.getPort() != -1 ? uri.getPort() : https ? 443 : 80;
        Socket socket;
        try {
            socket = connected(addresses, port);
        } catch (IOException e) {
            return new Delivery.Try(at, null, "not sent: " + e, millisSince(begun));
        }
        long deadline = System.nanoTime() + readTimeout.toNanos();
        try (Socket connection = https ? secured(socket, uri.getHost(), port, deadline) : socket) {
            OutputStream out = connection.getOutputStream();
            out.write(request(delivery, secret, uri, at.getEpochSecond()));
            out.flush();
            Answer answer = new Answer(connection, deadline);
            return new Delivery.Try(at, answer.status(), answer.body(maxAnswer), millisSince(begun));
        } catch (SocketTimeoutException e) {
            return new Delivery.Try(at, null, "no answer within " + readTimeout.toMillis() + " ms", millisSince(begun));
        } catch (IOException e) {
            return new Delivery.Try(at, null, "not sent: " + e, millisSince(begun));
        }
    }

    private Socket connected(List<InetAddress> addresses, int port) throws IOException {
        IOException last = new IOException("no address to connect to");
        for (InetAddress address : addresses) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(address, port), connectMillis);
                return socket;
            } catch (IOException e) {
                socket.close();
                last = e;
            }
        }
        throw last;
    }

    /** TLS over the connection, checked against the URL's host name as a browser would. */
    private SSLSocket secured(Socket socket, String host, int port, long deadline) throws IOException {
        String name = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        SSLSocket secured = (SSLSocket) tls.createSocket(socket, name, port, true);
        SSLParameters parameters = secured.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!AllowedTargets.Block.looksLikeAddress(name)) {
            parameters.setServerNames(List.of(new SNIHostName(name)));
        }
        secured.setSSLParameters(parameters);
        secured.setSoTimeout(Answer.remainingMillis(deadline));
        secured.startHandshake();
        return secured;
    }

    private static byte[] request(Delivery delivery, String secret, URI uri, long timestamp) {
        byte[] body = delivery.body().getBytes(StandardCharsets.UTF_8);
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
        String host = uri.getHost() + (uri.getPort() != -1 ? ":" + uri.getPort() : "");
        String head = "POST " + target + " HTTP/1.1\r\n"
                + "Host: " + host + "\r\n"
                + "User-Agent: paddle-jobs\r\n"
                + "Content-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "webhook-id: " + delivery.id() + "\r\n"
                + "webhook-timestamp: " + timestamp + "\r\n"
                + "webhook-signature: " + Signatures.sign(secret, delivery.id(), timestamp, delivery.body()) + "\r\n"
                + "Connection: close\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }

    private static long millisSince(long begun) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begun);
    }

    /** The answer as it is read: its status line and headers, then at most a cap of its body, all before the deadline. */
    private static final class Answer {

        private final InputStream in;
        private final Socket socket;
        private final long deadline;
        private int status;
        private long contentLength = -1;
        private boolean chunked;

        Answer(Socket socket, long deadline) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 2048);
            this.deadline = deadline;
            do {
                readHead();
            } while (status >= 100 && status < 200); // an interim answer; the final one follows
        }

        int status() {
            return status;
        }

        private void readHead() throws IOException {
            String statusLine = line();
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/") || !parts[1].matches("\\d{3}")) {
                throw new IOException("not an HTTP answer: "
                        + statusLine.substring(0, Math.min(statusLine.length(), 80)));
            }
            status = Integer.parseInt(parts[1]);
            int headBytes = statusLine.length();
            for (String header = line(); !header.isEmpty(); header = line()) {
                headBytes += header.length();
                if (headBytes > MAX_HEAD) {
                    throw new IOException("an answer's headers longer than " + MAX_HEAD + " bytes");
                }
                int colon = header.indexOf(':');
                String name = colon < 0 ? header : header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = colon < 0 ? "" : header.substring(colon + 1).trim();
                if (name.equals("content-length") && value.matches("\\d{1,18}")) {
                    contentLength = Long.parseLong(value);
                } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                    chunked = true;
                }
            }
        }

        /** The body's first {@code cap} bytes, as text; the rest is not read (the connection is closed). */
        String body(int cap) throws IOException {
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            if (chunked) {
                while (kept.size() < cap) {
                    long size = chunkSize();
                    if (size == 0) {
                        break;
                    }
                    int before = kept.size();
                    copy(kept, Math.min(size, cap - before));
                    if (kept.size() - before < size) {
                        break; // the cap, or the answer's end, within this chunk
                    }
                    line(); // the chunk's closing CRLF
                }
            } else {
                copy(kept, contentLength >= 0 ? Math.min(contentLength, cap) : cap);
            }
            return kept.toString(StandardCharsets.UTF_8);
        }

        private long chunkSize() throws IOException {
            String size = line().split(";", 2)[0].trim();
            try {
                return Long.parseLong(size, 16);
            } catch (NumberFormatException e) {
                throw new IOException("a chunk of the answer without its size");
            }
        }

        /** Up to {@code count} bytes into {@code kept}; fewer when the answer ends first. */
        private void copy(ByteArrayOutputStream kept, long count) throws IOException {
            byte[] buffer = new byte[1024];
            for (long left = count; left > 0; ) {
                socket.setSoTimeout(remainingMillis(deadline));
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (read < 0) {
                    return;
                }
                kept.write(buffer, 0, read);
                left -= read;
            }
        }

        /** One line of the head, without its CRLF. */
        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            while (true) {
                socket.setSoTimeout(remainingMillis(deadline));
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the answer ended early");
                }
                if (b == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                if (line.length() >= MAX_HEAD) {
                    throw new IOException("an answer's line longer than " + MAX_HEAD + " bytes");
                }
                line.append((char) b);
            }
        }

        /** The time left until the deadline, as a socket's timeout: at least 1 ms (0 would mean none). */
        static int remainingMillis(long deadline) throws SocketTimeoutException {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw new SocketTimeoutException("past the deadline");
            }
            return (int) Math.min(left, Integer.MAX_VALUE);
        }
    }
}

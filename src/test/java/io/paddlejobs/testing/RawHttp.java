package io.paddlejobs.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 written by hand, for the headers Java's client will not send as given ({@code Host}):
 * what a browser on a rebound domain, or a cross-site form, sends to the service.
 */
public final class RawHttp {

    public record Response(int status, Map<String, String> headers, String body) {
    }

    private RawHttp() {
    }

    public static Response send(int port, String method, String path, Map<String, String> headers, String body) {
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
            socket.setSoTimeout(30_000);
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
            Map<String, String> all = new LinkedHashMap<>(headers);
            all.putIfAbsent("Host", "127.0.0.1:" + port);
            all.put("Connection", "close");
            all.put("Content-Length", Integer.toString(content.length));
            all.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
            request.append("\r\n");
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().write(content);
            socket.getOutputStream().flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Response parse(byte[] raw) throws IOException {
        String text = new String(raw, StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        String[] lines = text.substring(0, end).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        String body = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(Integer.parseInt(lines[0].split(" ")[1]), headers, body);
    }

    private static String dechunk(String chunked) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = new java.io.ByteArrayInputStream(chunked.getBytes(StandardCharsets.UTF_8));
        String rest = chunked;
        while (true) {
            int lineEnd = rest.indexOf("\r\n");
            int size = Integer.parseInt(rest.substring(0, lineEnd).trim(), 16);
            if (size == 0) {
                return out.toString(StandardCharsets.UTF_8);
            }
            out.write(rest.substring(lineEnd + 2, lineEnd + 2 + size).getBytes(StandardCharsets.UTF_8));
            rest = rest.substring(lineEnd + 2 + size + 2);
        }
    }
}

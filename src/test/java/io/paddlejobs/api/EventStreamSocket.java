package io.paddlejobs.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A Server-Sent-Events stream read over a plain socket: the least a client can hold. */
record EventStreamSocket(Socket socket, BufferedReader in) implements AutoCloseable {

    static EventStreamSocket open(int port, String path) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return new EventStreamSocket(socket,
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 512));
    }

    /** Reads until an event of that name whose data holds {@code containing}. */
    void awaitEvent(String name, String containing) throws IOException {
        String event = null;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("event:")) {
                event = line.substring("event:".length());
            } else if (line.startsWith("data:") && name.equals(event) && line.contains(containing)) {
                return;
            }
        }
        throw new IOException("the stream ended before a " + name + " event with " + containing);
    }

    /** Reads until a line that starts so. */
    void awaitLine(String prefix) throws IOException {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith(prefix)) {
                return;
            }
        }
        throw new IOException("the stream ended before a line starting " + prefix);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

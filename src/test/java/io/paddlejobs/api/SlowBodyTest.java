package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A body trickled a byte at a time cannot hold a request thread past the body deadline (2 s in {@link ApiTest}). */
@Tag("redteam") // Red team round 1, M3: slow request bodies holding request threads.
class SlowBodyTest extends ApiTest {

    @Test
    void aTrickledBodyIsCutOffWith408() throws Exception {
        String body = "{\"name\":\"slow\",\"entry_point\":\"true\"}";
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /jobs HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            // The attack itself: two bytes a second (each wait for an answer paces the next byte), for
            // longer than the deadline many times over but never the whole body (a whole body is a request).
            InputStream in = socket.getInputStream();
            socket.setSoTimeout(500);
            int answered = -1;
            for (int i = 0; i < body.length() - 1 && answered < 0; i++) {
                out.write(body.charAt(i));
                out.flush();
                try {
                    answered = in.read();
                } catch (SocketTimeoutException noAnswerYet) {
                    // the next byte
                }
            }

            // Answered while the client still trickled: the deadline cut it off, not the client's giving up.
            assertThat(answered).as("an answer before the body's last byte").isNotNegative();
            socket.shutdownOutput();
            socket.setSoTimeout(20_000);
            String response = (char) answered + new String(in.readAllBytes(), StandardCharsets.UTF_8);
            // Without the deadline the cut-off body is a 400 (unreadable JSON); with it, 408.
            assertThat(response).startsWith("HTTP/1.1 408").contains("body-too-slow");
        }
    }
}

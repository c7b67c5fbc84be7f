package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A body trickled a byte at a time cannot hold a request thread past the body deadline (2 s here). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class SlowBodyTest {

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.web.request-body-timeout", () -> "2s");
    }

    @LocalServerPort
    int port;

    @Test
    void aTrickledBodyIsCutOffWith408() throws Exception {
        String body = "{\"name\":\"slow\",\"entry_point\":\"true\"}";
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /jobs HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            long started = System.nanoTime();
            // The attack itself: two bytes a second, past the deadline; then the client stops sending.
            for (int i = 0; i < 8; i++) {
                out.write(body.charAt(i));
                out.flush();
                Thread.sleep(500);
            }
            socket.shutdownOutput();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            // Without the deadline the cut-off body is a 400 (unreadable JSON); with it, 408.
            assertThat(response).startsWith("HTTP/1.1 408").contains("body-too-slow");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        }
    }
}

package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.paddlejobs.planning.JobEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One attempt as the sender makes it, against real servers on loopback. Round 3's L4: the sender connects
 * to the addresses the allow-list check returned and never asks DNS again, so a name whose answer changes
 * between the check and the connection (a rebinding, with the JVM's cache off) cannot reach another address.
 */
@Tag("redteam")
class SenderTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @TempDir
    Path dir;

    private HttpServer server;
    private final List<String> hosts = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** Names no DNS knows, as the allow-list's resolver answered them at the check. */
    private static final Map<String, String> CHECKED = Map.of("hooks.test", "127.0.0.1", "other.test", "127.0.0.1");

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        String address = CHECKED.getOrDefault(host, host.matches("[0-9.]+") ? host : null);
        if (address == null) {
            throw new UnknownHostException(host);
        }
        return new InetAddress[] {InetAddress.getByName(address)};
    }

    private static final AllowedTargets TARGETS = new AllowedTargets(List.of("hooks.test", "other.test", "127.0.0.0/8"),
            true, SenderTest::resolve);

    private static Delivery.Try send(String url, Duration readTimeout, SSLSocketFactory tls) {
        AllowedTargets.Checked checked = TARGETS.check(url);
        assertThat(checked.refusal()).isNull();
        Delivery delivery = Subscriptions.delivery(JobEvent.SUCCEEDED, url, Delivery.SecretOf.JOB, "{\"a\":1}",
                Instant.now());
        return new Sender(Duration.ofSeconds(2), readTimeout, 1024, Clock.systemUTC(), tls)
                .attempt(delivery, SECRET, checked.addresses());
    }

    private void serve(HttpServer created, int status, String answer) {
        server = created;
        server.createContext("/", exchange -> answer(exchange, status, answer));
        server.start();
    }

    private void answer(HttpExchange exchange, int status, String answer) throws IOException {
        try (InputStream body = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
            body.readAllBytes();
            hosts.add(exchange.getRequestHeaders().getFirst("Host") + " " + exchange.getRequestHeaders().getFirst("webhook-id"));
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, status == 204 ? -1 : 0); // 0: chunked
            out.write(bytes);
        }
    }

    @Test
    void itConnectsToTheCheckedAddressWithoutResolvingTheNameAgain() throws IOException {
        serve(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0), 200, "ok");
        int port = server.getAddress().getPort();

        Delivery.Try attempt = send("http://hooks.test:" + port + "/hook?x=1", Duration.ofSeconds(5), null);

        assertThat(attempt.status()).as(attempt.answer()).isEqualTo(200);
        assertThat(attempt.answer()).isEqualTo("ok");
        assertThat(hosts).singleElement().asString().startsWith("hooks.test:" + port + " msg_");
    }

    @Test
    void anAnswerIsReadToItsCapAndARedirectIsAnAnswerNotFollowed() throws IOException {
        serve(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0), 302, "x".repeat(5000));
        Delivery.Try attempt = send("http://127.0.0.1:" + server.getAddress().getPort() + "/", Duration.ofSeconds(5), null);

        assertThat(attempt.status()).as(attempt.answer()).isEqualTo(302);
        assertThat(attempt.answer()).hasSize(1024);
        assertThat(attempt.delivered()).isFalse();
    }

    @Test
    void aReceiverThatNeverAnswersIsGivenUpOnAtTheReadTimeout() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Delivery.Try attempt = send("http://127.0.0.1:" + silent.getLocalPort() + "/", Duration.ofMillis(300), null);

            assertThat(attempt.status()).isNull();
            assertThat(attempt.answer()).isEqualTo("no answer within 300 ms");
        }
    }

    @Test
    void httpsChecksTheCertificateAgainstTheUrlsHostNameNotTheAddress() throws Exception {
        SSLContext tls = tls();
        HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        serve(https, 200, "secure");
        int port = https.getAddress().getPort();

        Delivery.Try named = send("https://hooks.test:" + port + "/", Duration.ofSeconds(5), tls.getSocketFactory());
        Delivery.Try otherName = send("https://other.test:" + port + "/", Duration.ofSeconds(5), tls.getSocketFactory());

        assertThat(named.status()).as(named.answer()).isEqualTo(200);
        assertThat(named.answer()).isEqualTo("secure");
        assertThat(otherName.status()).isNull();
        assertThat(otherName.answer()).startsWith("not sent: ").contains("other.test");
    }

    /** A certificate for hooks.test alone, made with the JDK's keytool, that both sides use. */
    private SSLContext tls() throws Exception {
        Path store = dir.resolve("hooks.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "hooks", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=hooks.test",
                "-ext", "SAN=dns:hooks.test", "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String said = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(said).isZero();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = java.nio.file.Files.newInputStream(store)) {
            keys.load(in, "changeit".toCharArray());
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("hooks", keys.getCertificate("hooks"));
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, "changeit".toCharArray());
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return context;
    }
}

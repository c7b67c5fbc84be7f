package io.paddlejobs.backend.kubernetes.manifest.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.paddlejobs.job.CodePackages;
import io.paddlejobs.packages.Archives;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The fetch init container's script, run by a real shell against the running service (mode
 * {@code token}: the script has no token, and needs none) over loopback. It runs twice: with this
 * machine's GNU tools, and with busybox's applets alone on the PATH, as in the default fetch image
 * (skipped without busybox, unless {@code -Dbusybox.required=true}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
public class CodePackageScriptTest {

    private static final String TOKEN = "fetch-test-s3cret";
    private static final List<String> APPLETS = List.of("sh", "wget", "tar", "gzip", "sha256sum", "head", "timeout",
            "sed", "tail", "cat", "wc", "tr", "grep", "cut", "mkdir", "rm");

    @TempDir
    static Path tmp;

    @TempDir
    Path volume;

    @LocalServerPort
    int port;

    @Autowired
    CodePackages packages;

    private final HttpClient http = HttpClient.newHttpClient();

    /** Which tools the script meets: the job image's kind (GNU) or the default fetch image's (busybox). */
    enum Tools { GNU, BUSYBOX }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        Path tokens = Files.writeString(tmp.resolve("tokens.yaml"), """
                tokens:
                  - user: alice
                    sha256: %s
                    namespaces: [team-a]
                """.formatted(sha256Hex(TOKEN)));
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
        registry.add("paddlejobs.security.mode", () -> "token");
        registry.add("paddlejobs.security.token-file", tokens::toString);
    }

    static String sha256Hex(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private String upload(byte[] archive) throws Exception {
        var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/packages?namespace=team-a"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(archive)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        Matcher id = Pattern.compile("sha256:[0-9a-f]{64}").matcher(response.body());
        assertThat(id.find()).isTrue();
        return id.group();
    }

    private String urlOf(String id) {
        return "http://127.0.0.1:" + port + packages.fetch("team-a", id).path();
    }

    private record Run(int exit, String output) {
    }

    private Run fetch(Tools tools, String id, String url, long maxBytes, int timeoutSeconds) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(shell(tools), "-c", CodePackageStep.SCRIPT, CodePackageStep.CONTAINER,
                volume.toString()).redirectErrorStream(true);
        if (tools == Tools.BUSYBOX) {
            builder.environment().put("PATH", busyboxApplets().toString());
        }
        builder.environment().putAll(Map.of("PACKAGE_ID", id, "PACKAGE_URL", url, "MAX_BYTES", Long.toString(maxBytes),
                "TIMEOUT_SECONDS", Integer.toString(timeoutSeconds)));
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the script ends by itself").isTrue();
        return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static String shell(Tools tools) {
        return tools == Tools.GNU ? "/bin/sh" : busyboxApplets().resolve("sh").toString();
    }

    /** A folder holding only busybox's applets, like the image's {@code /bin}. */
    private static Path busyboxApplets() {
        Path bin = tmp.resolve("busybox-bin");
        if (Files.isDirectory(bin)) {
            return bin;
        }
        Path busybox = Stream.of("/usr/bin/busybox", "/bin/busybox").map(Path::of).filter(Files::isExecutable)
                .findFirst().orElse(null);
        if (busybox == null) {
            if (Boolean.getBoolean("busybox.required")) {
                fail("busybox is not installed (-Dbusybox.required=true makes this a failure; .ci/run installs busybox-static)");
            }
            assumeTrue(false, "busybox is not installed");
        }
        try {
            Files.createDirectories(bin);
            for (String applet : APPLETS) {
                Files.createSymbolicLink(bin.resolve(applet), busybox);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bin;
    }

    @ParameterizedTest
    @EnumSource(Tools.class)
    void fetchesAndUnpacksAnUploadedPackageWithNoToken(Tools tools) throws Exception {
        String id = upload(new Archives().directory("lib").file("lib/words.txt", "shipped with the job\n")
                .file("run.sh", "cat lib/words.txt\n", 0755).bytes());

        Run run = fetch(tools, id, urlOf(id), 64L << 20, 30);

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("package " + id, "unpacked");
        Path code = volume.resolve("code");
        assertThat(code.resolve("lib/words.txt")).hasContent("shipped with the job");
        assertThat(Files.isExecutable(code.resolve("run.sh"))).isTrue();
        try (var left = Files.list(volume)) {
            assertThat(left).as("only the unpacked package stays").containsExactly(code);
        }
    }

    @ParameterizedTest
    @EnumSource(Tools.class)
    void aWrongKeyFailsNamingThePackageAndTheHttpStatusAndUnpacksNothing(Tools tools) throws Exception {
        String id = upload(new Archives().file("train.py", "print('mine')\n").bytes());
        String url = urlOf(id);

        Run run = fetch(tools, id, url.substring(0, url.length() - 4) + "AAAA", 64L << 20, 30);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.output()).contains("package " + id + ": the service answered HTTP 404");
        try (var unpacked = Files.list(volume.resolve("code"))) {
            assertThat(unpacked).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Tools.class)
    void aPackageOverTheSizeLimitIsNotUnpacked(Tools tools) throws Exception {
        String id = upload(new Archives().file("big.txt", "x".repeat(4096)).file("b.txt", "y").bytes());

        Run run = fetch(tools, id, urlOf(id), 20, 30);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.output()).contains("package " + id + ": larger than 20 bytes");
    }

    @ParameterizedTest
    @EnumSource(Tools.class)
    void bytesThatAreNotThePackageAreNotUnpacked(Tools tools) throws Exception {
        String real = upload(new Archives().file("a.py", "print('a')\n").bytes());
        String claimed = "sha256:" + "0".repeat(64);

        Run run = fetch(tools, claimed, urlOf(real), 64L << 20, 30);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.output()).contains("package " + claimed + ": the fetched bytes have " + real, "not unpacking");
        try (var unpacked = Files.list(volume.resolve("code"))) {
            assertThat(unpacked).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Tools.class)
    void aServiceThatNeverAnswersFailsWithinTheTimeout(Tools tools) throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            String id = "sha256:" + "1".repeat(64);

            Run run = fetch(tools, id, "http://127.0.0.1:" + silent.getLocalPort() + "/packages/" + id + "/content", 1024, 1);

            assertThat(run.exit()).isEqualTo(1);
            assertThat(run.output()).contains("package " + id + ": no answer from the service within 1s");
        }
    }

    @Test
    void aServiceThatIsNotThereFailsSayingSo() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        String id = "sha256:" + "2".repeat(64);

        Run run = fetch(Tools.GNU, id, "http://127.0.0.1:" + closed + "/packages/" + id + "/content", 1024, 10);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.output()).contains("package " + id + ": the service did not answer");
    }
}

package io.paddlejobs.webhooks;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tests' webhook receiver ({@code receiver.py}): a Python HTTP server that verifies every
 * delivery with the Standard Webhooks library, run from the venv {@code .ci/prepare-webhooks} builds
 * ({@code -Dwebhooks.venv}, default {@code $PADDLEJOBS_CACHE/webhooks-venv}). Without it a test is
 * skipped, unless {@code -Dwebhooks.required=true} makes that a failure.
 */
final class WebhookReceiver implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Process process;
    private final int port;
    private final Path record;

    private WebhookReceiver(Process process, int port, Path record) {
        this.process = process;
        this.port = port;
        this.record = record;
    }

    /** @param dir where it keeps what it got, its secrets and its switch */
    static WebhookReceiver start(Path dir) throws IOException {
        Path python = python();
        Path script;
        try {
            script = Path.of(WebhookReceiver.class.getResource("receiver.py").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Files.createDirectories(dir);
        Path record = dir.resolve("received.jsonl");
        Process process = new ProcessBuilder(python.toString(), script.toString(), record.toString())
                .redirectErrorStream(true).start();
        AtomicInteger port = new AtomicInteger();
        Thread reader = new Thread(() -> {
            try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("listening on ")) {
                        port.set(Integer.parseInt(line.substring("listening on ".length()).trim()));
                    } else {
                        System.out.println("receiver: " + line);
                    }
                }
            } catch (IOException ended) {
                // the receiver ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> port.get() != 0 || !process.isAlive());
        if (!process.isAlive()) {
            throw new IllegalStateException("the webhook receiver did not start (exit " + process.exitValue() + ")");
        }
        return new WebhookReceiver(process, port.get(), record);
    }

    private static Path python() {
        String given = System.getProperty("webhooks.venv", "");
        Path venv;
        if (!given.isBlank()) {
            venv = Path.of(given);
        } else {
            String cache = System.getenv("PADDLEJOBS_CACHE");
            Path root = cache != null && !cache.isBlank() ? Path.of(cache)
                    : Path.of(System.getProperty("user.home"), ".cache", "paddle-jobs");
            venv = root.resolve("webhooks-venv");
        }
        Path python = venv.resolve("bin").resolve("python");
        if (!Files.isExecutable(python)) {
            String why = "no webhook receiver venv at %s (run .ci/prepare-webhooks, or point -Dwebhooks.venv at it)"
                    .formatted(venv);
            if (Boolean.getBoolean("webhooks.required")) {
                fail(why + "; -Dwebhooks.required=true makes that a failure");
            }
            Assumptions.abort(why);
        }
        return python;
    }

    /** A URL of this receiver: {@code mode} is ok, fail-once, never or down (receiver.py). */
    String url(String mode, String rest) {
        return "http://127.0.0.1:" + port + "/" + mode + "/" + rest;
    }

    /** It verifies with this secret too from now on. */
    void trust(String secret) throws IOException {
        Files.writeString(record.resolveSibling(record.getFileName() + ".secrets"), secret + "\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** Whether {@code /down/} URLs answer 503. */
    void down(boolean down) throws IOException {
        Path marker = record.resolveSibling(record.getFileName() + ".down");
        if (down) {
            Files.writeString(marker, "");
        } else {
            Files.deleteIfExists(marker);
        }
    }

    /** Every request it got, in order: path, id, verified, payload, answer. */
    List<JsonNode> requests() throws IOException {
        List<JsonNode> requests = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(record)) {
                if (line.endsWith("}")) { // a line being written is not one yet
                    requests.add(JSON.readTree(line));
                }
            }
        } catch (NoSuchFileException none) {
            return requests;
        }
        return requests;
    }

    /** The requests to URLs whose path starts with {@code prefix} that it verified and answered 200. */
    List<JsonNode> accepted(String prefix) throws IOException {
        return requests().stream().filter(r -> r.get("path").asString().startsWith(prefix))
                .filter(r -> r.get("verified").asBoolean() && r.path("answer").asInt() == 200).toList();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}

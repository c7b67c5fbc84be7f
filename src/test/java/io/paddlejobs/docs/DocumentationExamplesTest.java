package io.paddlejobs.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shell block of README.md and docs/ runs, in page order, against a service started here as a user
 * starts it (the local backend, this checkout's examples), and answers as the page says ({@link ShellExample}):
 * a block that cannot run here says why, and any other that fails fails this test, so that the docs cannot
 * drift from what the service does. Requests go to this service in place of {@code 127.0.0.1:8080}; no other
 * address is reached.
 */
class DocumentationExamplesTest {

    private static final Path ROOT = Path.of(System.getProperty("project.basedir", ".")).toAbsolutePath().normalize();
    private static final Pattern STATUS = Pattern.compile("^EXAMPLE_STATUS (\\d{3})$", Pattern.MULTILINE);
    private static final long BLOCK_SECONDS = 120;

    @TempDir
    static Path work;

    private static ServiceProcess service;

    @BeforeAll
    static void startTheService() throws IOException {
        service = ServiceProcess.start(work.resolve("data"));
    }

    @AfterAll
    static void stopTheService() throws Exception {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void theServiceSaysOnceWhenItIsReadyWhereToOpenItAndThatAddressLeadsToTheJobsPage() throws Exception {
        assertThat(service.output()).containsOnlyOnce("paddle-jobs is ready: open http://127.0.0.1:" + service.port() + "/jobs");

        HttpResponse<String> home = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.port() + "/")).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(home.statusCode()).isEqualTo(302);
        assertThat(home.headers().firstValue("Location")).hasValue("/jobs");
    }

    @Test
    void everyShellBlockOfTheDocsRunsAsTheyDescribeItOrSaysWhyItCannot() throws Exception {
        Path bin = shims();
        Path cwd = workingDirectory();
        List<String> failures = new ArrayList<>();
        int ran = 0;
        for (ShellExample example : examples()) {
            if (example.skip() != null) {
                continue;
            }
            String failure = run(example, bin, cwd);
            ran++;
            if (failure != null) {
                failures.add(example + ": " + failure + "\n" + example.script());
            }
        }
        assertThat(ran).as("shell blocks run").isGreaterThanOrEqualTo(8);
        assertThat(failures).as("blocks that did not run as their page says (mark one that cannot run here with"
                + " <!-- example: skip: why -->)").isEmpty();
    }

    /** README.md first, then docs/ page by page: later pages may use the README's job, as a reader would. */
    static List<ShellExample> examples() throws IOException {
        List<ShellExample> examples = new ArrayList<>(ShellExample.of(ROOT.resolve("README.md")));
        try (Stream<Path> pages = Files.walk(ROOT.resolve("docs"))) {
            pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(p -> examples.addAll(ShellExample.of(p)));
        }
        return examples;
    }

    private static String run(ShellExample example, Path bin, Path cwd) throws Exception {
        String address = "127.0.0.1:" + service.port();
        String script = example.script().replace("127.0.0.1:8080", address).replace("localhost:8080", address);
        ProcessBuilder shell = new ProcessBuilder("bash", "-e", "-o", "pipefail", "-c", script).directory(cwd.toFile());
        shell.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        shell.environment().put("HOME", work.resolve("home").toString());
        shell.environment().put("PADDLE_JOBS_URL", "http://" + address);
        shell.environment().put("PYTHONPATH", ROOT.resolve("clients/python").toString());
        shell.environment().put("EXAMPLE_MAX_TIME", example.stream() ? "3" : "60");
        Path out = Files.createTempFile(work, "out", ".txt");
        Path err = Files.createTempFile(work, "err", ".txt");
        Process process = shell.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(BLOCK_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            return "still running after " + BLOCK_SECONDS + " s";
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        List<Integer> statuses = new ArrayList<>();
        Matcher status = STATUS.matcher(stderr);
        while (status.find()) {
            statuses.add(Integer.valueOf(status.group(1)));
        }
        String seen = " (exit " + process.exitValue() + ", answers " + statuses + ")\nstdout: " + tail(stdout)
                + "\nstderr: " + tail(stderr);
        if (example.stream()) {
            // curl ends a stream at its time limit with exit 28: expected, once the stream answered 200.
            return statuses.equals(List.of(200)) && (process.exitValue() == 0 || process.exitValue() == 28) ? null
                    : "the stream did not answer 200" + seen;
        }
        if (process.exitValue() != 0) {
            return "exited " + process.exitValue() + seen;
        }
        if (example.status() != null) {
            if (statuses.isEmpty() || statuses.get(statuses.size() - 1).intValue() != example.status()) {
                return "the last answer is not the " + example.status() + " the page says" + seen;
            }
            if (example.problemType() != null && !stdout.contains("\"type\":\"" + example.problemType() + "\"")) {
                return "the answer is not a problem of type " + example.problemType() + seen;
            }
            return null;
        }
        return statuses.stream().allMatch(code -> code >= 200 && code < 300) ? null : "an answer is not 2xx" + seen;
    }

    /**
     * {@code curl} as the pages use it, telling this test each answer's status on standard error (the pages'
     * own output and pipes stay as they are); {@code paddle-jobs}, the command line from this checkout.
     */
    private static Path shims() throws Exception {
        Path bin = Files.createDirectories(work.resolve("bin"));
        Process which = new ProcessBuilder("sh", "-c", "command -v curl").start();
        String curl = new String(which.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(which.waitFor()).as("curl is installed").isZero();
        write(bin.resolve("curl"), "#!/bin/sh\nexec " + curl + " --max-time \"$EXAMPLE_MAX_TIME\""
                + " --write-out '%{stderr}EXAMPLE_STATUS %{http_code}\\n' \"$@\"\n");
        write(bin.resolve("paddle-jobs"), "#!/bin/sh\nexec python3 -m paddle_jobs \"$@\"\n");
        Files.createDirectories(work.resolve("home"));
        return bin;
    }

    /** Where the blocks run: the checkout's examples and client at hand, as in its root, but files written stay here. */
    private static Path workingDirectory() throws IOException {
        Path cwd = Files.createDirectories(work.resolve("cwd"));
        for (String entry : List.of("examples", "clients", "openapi", "deploy")) {
            Files.createSymbolicLink(cwd.resolve(entry), ROOT.resolve(entry));
        }
        return cwd;
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static String tail(String text) {
        return text.length() > 1500 ? "..." + text.substring(text.length() - 1500) : text;
    }
}

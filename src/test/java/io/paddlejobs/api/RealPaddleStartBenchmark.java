package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Submit to first training step (docs/development/benchmarks.md): the same two-rank data-parallel program
 * through the service (local backend), as two processes started by hand, and under
 * {@code paddle.distributed.launch --nproc_per_node 2}, interleaved round by round ({@code -Dbenchmark.rounds},
 * 10). "First step" is the later of the two ranks' clocks just after their first optimizer step, less the
 * moment before the POST or the start. Prints medians with their spread, and how many runs of each way met
 * Paddle's store retry ("Retry to connect"); it asserts only that no service run did.
 */
@Tag("benchmark")
@Tag("paddle")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RealPaddleStartBenchmark {

    private static final Pattern FIRST_STEP = Pattern.compile("FIRST_STEP (\\d+\\.\\d+) rank (\\d) of 2");
    private static final String RETRY = "Retry to connect";

    @TempDir
    static Path dataRoot;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> dataRoot.toString());
        registry.add("paddlejobs.local.first-port", () -> 33000);
        registry.add("paddlejobs.local.last-port", () -> 33999);
    }

    @LocalServerPort
    int port;

    record Run(double seconds, boolean retried) {
    }

    @Test
    void submitToFirstStepThroughTheServiceBesideByHandAndTheLauncher() throws Exception {
        ServiceClient client = new ServiceClient(port);
        int rounds = Integer.getInteger("benchmark.rounds", 10);
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        List<String> ways = new ArrayList<>(List.of("service", "by hand", "launch --nproc_per_node 2"));
        for (int round = 0; round < rounds; round++) {
            for (String way : ways) {
                Run run = switch (way) {
                    case "service" -> service(client, "start-" + round);
                    case "by hand" -> byHand(round);
                    default -> launch(round);
                };
                runs.computeIfAbsent(way, w -> new ArrayList<>()).add(run);
                System.out.printf("start-benchmark round %d %s: %.2f s%s%n", round, way, run.seconds(),
                        run.retried() ? " (store retry)" : "");
            }
            java.util.Collections.rotate(ways, 1); // each way goes first, second and third in turn
        }
        double byHand = median(runs.get("by hand"));
        runs.forEach((way, list) -> System.out.printf(
                "start-benchmark %-26s median %.2f s (min %.2f, max %.2f) = %.2fx by hand; store retry in %d of %d%n",
                way, median(list), list.stream().mapToDouble(Run::seconds).min().orElseThrow(),
                list.stream().mapToDouble(Run::seconds).max().orElseThrow(), median(list) / byHand,
                list.stream().filter(Run::retried).count(), list.size()));
        assertThat(runs.get("service")).as("no service run waits out Paddle's store retry").noneMatch(Run::retried);
    }

    private Run service(ServiceClient client, String name) {
        String request = """
                {"name": "%s", "mode": "collective", "trainers": 2, "entry_point": "%s %s",
                 "env": {"OMP_NUM_THREADS": "1"}}""".formatted(name, python(), program());
        long before = System.currentTimeMillis();
        client.submit(request);
        client.awaitPhase(name, "Succeeded", Duration.ofMinutes(5));
        String logs = client.logs(name, "role=trainer&index=0") + client.logs(name, "role=trainer&index=1");
        return new Run(firstStep(logs) - before / 1000.0, logs.contains(RETRY));
    }

    private Run byHand(int round) throws IOException, InterruptedException {
        int master = freePort();
        String endpoints = "127.0.0.1:" + master + ",127.0.0.1:" + freePort();
        Path dir = Files.createDirectories(dataRoot.resolve("by-hand-" + round));
        List<Process> ranks = new ArrayList<>();
        long before = System.currentTimeMillis();
        for (int rank = 0; rank < 2; rank++) {
            Map<String, String> env = new HashMap<>(Map.of("PADDLE_TRAINER_ID", "" + rank, "PADDLE_TRAINERS_NUM", "2",
                    "PADDLE_TRAINER_ENDPOINTS", endpoints, "PADDLE_CURRENT_ENDPOINT", endpoints.split(",")[rank],
                    "PADDLE_MASTER", endpoints.split(",")[0], "PADDLE_DISTRI_BACKEND", "gloo", "OMP_NUM_THREADS", "1"));
            ranks.add(start(dir, "rank-" + rank + ".log", env, python().toString(), program()));
        }
        for (Process rank : ranks) {
            assertThat(rank.waitFor(5, TimeUnit.MINUTES) && rank.exitValue() == 0).isTrue();
        }
        String logs = Files.readString(dir.resolve("rank-0.log")) + Files.readString(dir.resolve("rank-1.log"));
        return new Run(firstStep(logs) - before / 1000.0, logs.contains(RETRY));
    }

    private Run launch(int round) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(dataRoot.resolve("launch-" + round));
        long before = System.currentTimeMillis();
        Process launcher = start(dir, "launch.log", Map.of("OMP_NUM_THREADS", "1"), python().toString(), "-m",
                "paddle.distributed.launch", "--nproc_per_node", "2", program());
        assertThat(launcher.waitFor(5, TimeUnit.MINUTES) && launcher.exitValue() == 0).isTrue();
        String logs = Files.readString(dir.resolve("log/workerlog.0")) + Files.readString(dir.resolve("log/workerlog.1"));
        return new Run(firstStep(logs) - before / 1000.0, logs.contains(RETRY));
    }

    private static Process start(Path dir, String log, Map<String, String> env, String... command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve(log).toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("PADDLE") || name.startsWith("CUDA"));
        builder.environment().putAll(env);
        return builder.start();
    }

    /** The later rank's first step: the group took its first step when both had. */
    private static double firstStep(String logs) {
        Matcher line = FIRST_STEP.matcher(logs);
        double latest = 0;
        int seen = 0;
        while (line.find()) {
            latest = Math.max(latest, Double.parseDouble(line.group(1)));
            seen++;
        }
        assertThat(seen).as("both ranks' first steps in%n%s", logs).isGreaterThanOrEqualTo(2);
        return latest;
    }

    private static double median(List<Run> runs) {
        double[] sorted = runs.stream().mapToDouble(Run::seconds).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Path python() {
        return PaddleVenvs.python("3.3.1");
    }

    private static String program() {
        try {
            return Path.of(Objects.requireNonNull(RealPaddleStartBenchmark.class.getResource("paddle/first_step.py"))
                    .toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}

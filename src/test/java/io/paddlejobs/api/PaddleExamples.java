package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The real Paddle examples ({@code examples/paddle-*}) as a test submits them, and what their trainers' logs must show. */
public final class PaddleExamples {

    // The examples' metrics lines: {"step": 5, "total_steps": 39, "loss": 5.30} (total_steps for the status's progress).
    private static final Pattern METRICS = Pattern.compile(
            "^PADDLEJOBS_METRICS \\{\"step\": (\\d+), (?:\"total_steps\": \\d+, )?\"loss\": ([^,}]+)}$", Pattern.MULTILINE);
    private static final Pattern PS_CHECKPOINT = Pattern.compile("pass-(\\d+)");
    private static final Pattern CHECKSUM = Pattern.compile("parameters sha256 ([0-9a-f]{64})");
    private static final Pattern RANK_CHECKSUM = Pattern.compile("world (\\d+) rank (\\d+) parameters sha256 ([0-9a-f]{64})");

    private PaddleExamples() {
    }

    /** The example's job.json, as its submit.sh fills it in. */
    public static String request(String name, Path python) throws IOException {
        Path dir = Path.of(System.getProperty("project.basedir", ".")).resolve("examples").resolve(name)
                .toAbsolutePath().normalize();
        return Files.readString(dir.resolve("job.json"))
                .replace("@EXAMPLE_DIR@", dir.toString()).replace("@PYTHON@", python.toString());
    }

    /** Whether a trainer's log has its first loss line yet. */
    public static boolean reportsALoss(String log) {
        return METRICS.matcher(log).find();
    }

    /** The trainer reported its loss several times, and the last is far below the first. */
    public static void assertLossFalls(String log) {
        List<Double> losses = losses(log);
        assertThat(losses).as("losses in%n%s", log).hasSizeGreaterThanOrEqualTo(3);
        assertThat(losses.get(losses.size() - 1)).as("last loss of %s", losses).isLessThan(losses.get(0) / 10);
    }

    /** The losses of a trainer's metrics lines, in the order it printed them. */
    public static List<Double> losses(String log) {
        List<Double> losses = new ArrayList<>();
        Matcher line = METRICS.matcher(log);
        while (line.find()) {
            losses.add(Double.parseDouble(line.group(2)));
        }
        return losses;
    }

    /**
     * The last pass the parameter-server example saved whole under its checkpoint directory
     * ({@code pass-N}; one being written is {@code pass-N.partial}), or 0 when none is there yet.
     */
    public static int latestPsCheckpoint(Path checkpoints) throws IOException {
        if (!Files.isDirectory(checkpoints)) {
            return 0;
        }
        try (var names = Files.list(checkpoints)) {
            return names.map(path -> PS_CHECKPOINT.matcher(path.getFileName().toString()))
                    .filter(Matcher::matches).mapToInt(name -> Integer.parseInt(name.group(1))).max().orElse(0);
        }
    }

    /** The checksum of its parameters a collective rank prints at its end. */
    public static Optional<String> parametersChecksum(String log) {
        Matcher checksum = CHECKSUM.matcher(log);
        return checksum.find() ? Optional.of(checksum.group(1)) : Optional.empty();
    }

    /** A small {@code paddle.Model.fit} program (test resource) that ends each rank with its world, rank and checksum. */
    public static Path hapiRanksProgram() throws URISyntaxException {
        return Path.of(Objects.requireNonNull(PaddleExamples.class.getResource("paddle/hapi_ranks.py")).toURI());
    }

    /** The Python client's sources, for a job's {@code PYTHONPATH} (its hapi callback), as a user installs it. */
    public static String pythonClient() {
        return Path.of(System.getProperty("project.basedir", ".")).resolve("clients/python").toAbsolutePath()
                .normalize().toString();
    }

    /**
     * The trainers' logs end with one group of two: world 2, ranks 0 and 1, the same parameters. Which log
     * shows which rank is the launcher's to say (while the replicas of a job share one working directory, two
     * launchers write, and repeat, the same log/workerlog.0).
     */
    public static void assertOneGroupOfTwo(List<String> trainerLogs) {
        Set<String> ranks = new TreeSet<>();
        Set<String> checksums = new TreeSet<>();
        for (int trainer = 0; trainer < trainerLogs.size(); trainer++) {
            String log = trainerLogs.get(trainer);
            Matcher end = RANK_CHECKSUM.matcher(log);
            assertThat(end.find()).as("trainer-%d:%n%s", trainer, log).isTrue();
            do {
                assertThat(end.group(1)).as("world size in %s", end.group()).isEqualTo("2");
                ranks.add(end.group(2));
                checksums.add(end.group(3));
            } while (end.find());
        }
        assertThat(ranks).containsExactly("0", "1");
        assertThat(checksums).as("all-reduced: the same parameters on both ranks").hasSize(1);
    }
}

package io.paddlejobs.backend.slurm;

import io.paddlejobs.planning.JobPlan;
import io.paddlejobs.planning.Replica;
import io.paddlejobs.planning.RolePlan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One job's directory on the shared filesystem, {@code <shared-dir>/jobs/<namespace>/<job>/}:
 * what the replicas read ({@code launch.sh}, {@code env/<replica>.env}, {@code entry/<role>}),
 * what they write ({@code logs/}, {@code state/}, {@code work/}), and the service's record.
 */
record JobFiles(Path dir) {

    Path record() {
        return dir.resolve("job.json");
    }

    Path workDir() {
        return dir.resolve("work");
    }

    Path batchLog() {
        return dir.resolve("logs").resolve("batch.log");
    }

    Path logFile(String replicaId) {
        return dir.resolve("logs").resolve(replicaId + ".log");
    }

    /** Writes everything the replicas read; they start only after this, so it is complete when they look. */
    void prepare(JobPlan plan) {
        try {
            for (String sub : new String[] {"env", "entry", "logs", "state", "work"}) {
                Files.createDirectories(dir.resolve(sub));
            }
            Files.writeString(dir.resolve("launch.sh"), BatchScripts.LAUNCHER);
            for (RolePlan role : BatchScripts.roles(plan)) {
                Files.writeString(dir.resolve("entry").resolve(role.role().label()), role.entryPoint());
            }
            for (Replica replica : plan.replicas()) {
                Files.write(dir.resolve("env").resolve(replica.id() + ".env"), nulSeparated(replica.env()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the files of job " + plan.name() + " under " + dir, e);
        }
    }

    /** {@code NAME=value\0} per variable: a value may hold any character but NUL, newlines included. */
    private static byte[] nulSeparated(Map<String, String> env) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        env.forEach((name, value) -> {
            out.writeBytes((name + "=" + value).getBytes(StandardCharsets.UTF_8));
            out.write(0);
        });
        return out.toByteArray();
    }

    /** What the replicas have left in {@code state/}: who started, who exited how, whether the job was being stopped. */
    ReplicaMarks marks() {
        Path state = dir.resolve("state");
        Map<String, ReplicaMarks.Mark> marks = new HashMap<>();
        if (!Files.isDirectory(state)) {
            return new ReplicaMarks(marks, false, null);
        }
        try (Stream<Path> files = Files.list(state)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".started")) {
                    marks.merge(name.substring(0, name.length() - ".started".length()),
                            new ReplicaMarks.Mark(true, null, false, instant(read(file)), null), ReplicaMarks.Mark::merge);
                } else if (name.endsWith(".exit")) {
                    String[] outcome = read(file).strip().split(" ");
                    marks.merge(name.substring(0, name.length() - ".exit".length()),
                            new ReplicaMarks.Mark(true, Integer.valueOf(outcome[0]), outcome.length > 1, null,
                                    Files.getLastModifiedTime(file).toInstant()),
                            ReplicaMarks.Mark::merge);
                }
            }
        } catch (IOException | RuntimeException e) {
            // A file being written as we look; the next poll reads it whole.
            return new ReplicaMarks(marks, Files.exists(state.resolve("stopping")), null);
        }
        Path placement = state.resolve("placement");
        return new ReplicaMarks(marks, Files.exists(state.resolve("stopping")),
                Files.exists(placement) ? Placement.parse(read(placement)) : null);
    }

    /** The launcher writes {@code date -u +%FT%TZ}; anything else is no time. */
    private static java.time.Instant instant(String text) {
        try {
            return java.time.Instant.parse(text.strip());
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void delete() {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the files of the job under " + dir, e);
        }
    }
}

package io.paddlejobs.backend.slurm.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs a tool to its end within a deadline that covers everything: writing its input, its run, and
 * reading its output to the end. Input and output go through threads of their own, so a tool that
 * never answers, never reads, or leaves a child holding its output open cannot hold the caller
 * past the deadline; at the deadline it is killed with whatever it started.
 */
final class BoundedRun {

    /** What the tool said; {@code timedOut} when it was killed at the deadline (then the rest is what came). */
    record Result(int exitCode, String out, String err, boolean timedOut) {
    }

    private BoundedRun() {
    }

    static Result run(ProcessBuilder builder, String stdin, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Process process = builder.start();
        CompletableFuture<Void> input = feed(() -> write(process.getOutputStream(), stdin));
        CompletableFuture<String> out = io("output", () -> read(process.getInputStream()));
        CompletableFuture<String> err = io("errors", () -> read(process.getErrorStream()));
        try {
            boolean ended = process.waitFor(remaining(deadline), TimeUnit.NANOSECONDS);
            if (ended) {
                CompletableFuture.allOf(input, out, err).get(remaining(deadline), TimeUnit.NANOSECONDS);
                return new Result(process.exitValue(), out.join(), err.join(), false);
            }
        } catch (TimeoutException | ExecutionException readsDidNotEnd) {
            // its output is held open past the deadline (by a child of it), or could not be read: killed below
        } finally {
            if (process.isAlive() || !out.isDone() || !err.isDone()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
        return new Result(-1, out.getNow(""), err.getNow(""), true);
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    private static void write(OutputStream in, String text) {
        try (in) {
            if (text != null) {
                in.write(text.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // the tool does not read its input (or has ended): what it answers says the rest
        }
    }

    private static String read(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One daemon thread for one stream of one call: it ends with the stream, which the deadline's kill ends. */
    private static <T> CompletableFuture<T> io(String what, Supplier<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(work.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }, "slurm-tool-" + what);
        thread.setDaemon(true);
        thread.start();
        return result;
    }

    private static CompletableFuture<Void> feed(Runnable work) {
        return io("input", () -> {
            work.run();
            return null;
        });
    }
}

package io.paddlejobs.backend.slurm;

import io.paddlejobs.backend.slurm.client.BatchJob;
import io.paddlejobs.backend.slurm.client.SlurmCli;
import io.paddlejobs.backend.slurm.client.SlurmException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every call of a Slurm tool is bounded, its output included: a tool that never answers, or that
 * answers but leaves a child holding its output open, is killed at the limit and the call fails
 * saying so. Before, the output was read to its end first, so the limit never applied (a cancel of
 * a pending job waited on {@code scancel} for minutes).
 */
class SlurmCliTimeoutTest {

    /** Far above the limit these tests give the tools; a call held past it never returns. */
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Duration LIMIT = Duration.ofSeconds(1);

    @TempDir
    Path bin;

    @Test
    void aToolThatNeverAnswersIsKilledAtTheLimitAndTheCallFailsSayingSo() throws IOException {
        String marker = "3307";
        fake("scontrol", "exec sleep " + marker);
        SlurmCli cli = new SlurmCli("", bin.toString(), LIMIT);

        CompletableFuture<Throwable> call = CompletableFuture.supplyAsync(() -> failureOf(cli::jobs));

        await().atMost(DEADLINE).until(call::isDone);
        assertThat(call.join()).isInstanceOf(SlurmException.class).hasMessageContaining("did not answer within 1 s");
        await().atMost(DEADLINE).until(() -> !anyProcessWith("sleep " + marker));
    }

    @Test
    void aToolThatAnswersButLeavesAChildHoldingItsOutputIsBoundedToo() throws IOException {
        String marker = "3308";
        fake("scancel", "sleep " + marker + " & exit 0");
        SlurmCli cli = new SlurmCli("", bin.toString(), LIMIT);

        CompletableFuture<Throwable> call = CompletableFuture.supplyAsync(() -> failureOf(() -> cli.cancel(42)));

        await().atMost(DEADLINE).until(call::isDone);
        // Bounded either way: where the tool ended before anything read its output, the JDK drained and closed
        // that output itself (the call then has what the tool said); else the read is cut at the limit.
        Throwable failure = call.join();
        if (failure != null) {
            assertThat(failure).isInstanceOf(SlurmException.class).hasMessageContaining("did not answer within 1 s");
        }
        // Its child outlived it (no longer its descendant, so not killed with it): it is the test's to end.
        ProcessHandle.allProcesses().filter(p -> commandLine(p).contains("sleep " + marker)).forEach(ProcessHandle::destroy);
    }

    @Test
    void aToolThatAnswersInTimeGivesItsOutput() throws IOException {
        fake("sbatch", "cat >/dev/null; echo '4711;cluster'");
        SlurmCli cli = new SlurmCli("", bin.toString(), LIMIT.multipliedBy(30));

        assertThat(cli.submit(new BatchJob("paddlejobs.default.x", bin, bin.resolve("out"),
                List.of(new BatchJob.Component(1, 1, 1, 0)), 0, 0, SlurmChoices.DEFAULTS, "true\n"))).isEqualTo(4711);
    }

    private void fake(String tool, String body) throws IOException {
        Path script = bin.resolve(tool);
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static Throwable failureOf(Runnable call) {
        try {
            call.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    private static boolean anyProcessWith(String text) {
        return ProcessHandle.allProcesses().anyMatch(p -> commandLine(p).contains(text));
    }

    private static String commandLine(ProcessHandle process) {
        return process.info().commandLine().orElse("");
    }
}

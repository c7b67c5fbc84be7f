package io.paddlejobs.backend.kubernetes.manifest.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The init container's script, run by a real shell. This machine has no {@code nc}, so a stand-in
 * that probes with bash's {@code /dev/tcp} takes its place on the PATH; the loop, the deadline and
 * the endpoint parsing are the script's own.
 */
class WaitForPserversScriptTest {

    @TempDir
    static Path bin;

    @BeforeAll
    static void standInForNc() throws Exception {
        assumeTrue(new File("/bin/bash").canExecute() && new File("/bin/sh").canExecute(), "needs sh and bash");
        Path nc = bin.resolve("nc");
        // Called as: nc -z -w 2 HOST PORT
        Files.writeString(nc, "#!/bin/bash\nexec 3<>\"/dev/tcp/$4/$5\"\n", StandardCharsets.UTF_8);
        assertThat(nc.toFile().setExecutable(true)).isTrue();
    }

    private static Process run(int timeoutSeconds, String... endpoints) throws Exception {
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", WaitForPserversStep.SCRIPT, "wait-for-pservers"));
        command.addAll(List.of(endpoints));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        builder.environment().put("TIMEOUT_SECONDS", Integer.toString(timeoutSeconds));
        return builder.start();
    }

    @Test
    void succeedsOnceEveryEndpointAcceptsConnections() throws Exception {
        try (ServerSocket first = new ServerSocket(0); ServerSocket second = new ServerSocket(0)) {
            Process wait = run(30, "127.0.0.1:" + first.getLocalPort(), "127.0.0.1:" + second.getLocalPort());
            assertThat(wait.waitFor(20, TimeUnit.SECONDS)).isTrue();
            String output = new String(wait.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(wait.exitValue()).as(output).isZero();
            assertThat(output).contains("pserver 127.0.0.1:" + second.getLocalPort() + " is up");
        }
    }

    @Test
    void failsNamingThePserverThatNeverAnswered() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Process wait = run(1, "127.0.0.1:" + closed);
        assertThat(wait.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String output = new String(wait.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(wait.exitValue()).isEqualTo(1);
        assertThat(output).contains("pserver 127.0.0.1:" + closed + " did not accept connections within 1s");
    }
}

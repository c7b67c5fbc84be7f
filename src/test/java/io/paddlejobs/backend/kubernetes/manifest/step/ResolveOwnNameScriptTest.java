package io.paddlejobs.backend.kubernetes.manifest.step;

import io.paddlejobs.backend.kubernetes.KubeletEnv;
import io.paddlejobs.backend.kubernetes.KubernetesProperties;
import io.paddlejobs.backend.kubernetes.Plans;
import io.paddlejobs.backend.kubernetes.manifest.Manifests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.paddlejobs.testing.Settings;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pserver's own-name init script, run by a real shell. A stand-in for busybox {@code nc}
 * answers as it does: {@code bad address} for a name that does not resolve (here, per
 * {@code getent}), a refused connection otherwise.
 */
class ResolveOwnNameScriptTest {

    @TempDir
    static Path bin;

    @BeforeAll
    static void standInForNc() throws Exception {
        assumeTrue(new File("/bin/bash").canExecute() && new File("/bin/sh").canExecute(), "needs sh and bash");
        assumeTrue(new ProcessBuilder("getent", "hosts", "localhost").start().waitFor() == 0, "needs getent");
        Path nc = bin.resolve("nc");
        // Called as: nc -z -w 1 HOST PORT
        Files.writeString(nc, """
                #!/bin/bash
                getent hosts "$4" >/dev/null || { echo "nc: bad address '$4'" >&2; exit 1; }
                echo "nc: can't connect to remote host: Connection refused" >&2
                exit 1
                """, StandardCharsets.UTF_8);
        assertThat(nc.toFile().setExecutable(true)).isTrue();
    }

    private static Process run(int timeoutSeconds, String host) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", ResolveOwnNameStep.SCRIPT, "wait-for-own-name", host)
                .redirectErrorStream(true);
        builder.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        builder.environment().put("TIMEOUT_SECONDS", Integer.toString(timeoutSeconds));
        return builder.start();
    }

    @Test
    void aNameThatResolvesLetsThePserverStartThoughNothingListens() throws Exception {
        Process wait = run(30, "localhost");
        assertThat(wait.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String output = new String(wait.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(wait.exitValue()).as(output).isZero();
        assertThat(output).contains("localhost resolves");
    }

    @Test
    void aNameThatNeverResolvesFailsSayingWhich() throws Exception {
        Process wait = run(1, "no-such-pserver.invalid");
        assertThat(wait.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String output = new String(wait.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(wait.exitValue()).isEqualTo(1);
        assertThat(output).contains("this pserver's name no-such-pserver.invalid did not resolve within 1s");
    }

    @Test
    void thePserverPodWaitsForItsOwnNameAsThePlannerWroteIt() {
        var plan = Plans.plan("mnist", 2);
        var manifests = Manifests.desired(plan, Settings.defaults(KubernetesProperties.class));
        var init = manifests.pserverJob().getSpec().getTemplate().getSpec().getInitContainers();
        assertThat(init).singleElement().satisfies(c -> {
            assertThat(c.getName()).isEqualTo("wait-for-own-name");
            assertThat(c.getCommand().get(4)).isEqualTo("mnist-pserver-$(JOB_COMPLETION_INDEX).mnist");
            assertThat(KubeletEnv.expand(c.getCommand().get(4), java.util.Map.of("JOB_COMPLETION_INDEX", "1")))
                    .isEqualTo(plan.replicasOf(io.paddlejobs.planning.Role.PSERVER).get(1).host());
            assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        });
    }
}

package io.paddlejobs.backend.local;

import static io.paddlejobs.backend.local.LocalBackendFixture.DEADLINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.job.JobKey;
import io.paddlejobs.job.JobPhase;
import io.paddlejobs.packages.Archives;
import io.paddlejobs.packages.PackageStore;
import io.paddlejobs.packages.PackagesProperties;
import io.paddlejobs.planning.JobRequests;
import io.paddlejobs.planning.Role;
import io.paddlejobs.testing.Settings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

/**
 * Each replica starts in a working directory of its own, {@code work/<role>-<index>}, as each pod
 * has its own file system: two ranks writing the same relative file each write their own. The
 * package is unpacked once into {@code code/}; each working directory links to its entries, so
 * {@code python3 train.py}, its imports and the files it opens by relative paths work unchanged,
 * and the code is not the replicas' to change.
 */
class ReplicaWorkingDirectoryTest {

    @TempDir
    Path dataRoot;
    @TempDir
    Path packages;

    @Test
    void twoRanksWritingTheSameRelativeFileDoNotCollide() throws Exception {
        try (var local = new LocalBackendFixture(dataRoot, 4)) {
            local.submit("ranks", "echo rank-$PADDLE_TRAINER_ID > out.txt; mkdir -p output; echo $PADDLE_TRAINER_ID > output/log;"
                    + " [ -f marker ] && echo SHARED; touch marker; sleep 1; echo read-$(cat out.txt) pwd=$(pwd)", 0, 2);
            local.awaitPhase("ranks", JobPhase.SUCCEEDED);

            for (int rank = 0; rank < 2; rank++) {
                Path own = dataRoot.resolve("jobs/default/ranks/work/trainer-" + rank);
                assertThat(local.log("ranks", Role.TRAINER, rank)).contains("read-rank-" + rank + " pwd=" + own)
                        .doesNotContain("SHARED");
                assertThat(own.resolve("out.txt")).hasContent("rank-" + rank);
                assertThat(own.resolve("output/log")).hasContent(Integer.toString(rank));
            }
        }
    }

    @Test
    void aPackagesScriptImportsAndRelativeFilesWorkFromEachReplicasOwnDirectoryAndTheCodeIsReadOnly() throws Exception {
        String id = store("team-a", new Archives()
                .file("train.py", """
                        import os, helper
                        print(helper.GREETING, open("data/config.txt").read().strip())
                        with open("out.txt", "w") as f:
                            f.write(os.environ["PADDLE_TRAINER_ID"])
                        """)
                .file("helper.py", "GREETING = 'imported'\n")
                .directory("data").file("data/config.txt", "from-the-package\n").bytes());
        LocalProperties properties = LocalBackendFixture.properties(dataRoot);
        var store = new PackageStore(Settings.of(PackagesProperties.class, "dir", packages), DataSize.ofMegabytes(1));
        try (var local = new LocalBackendFixture(properties, true, properties.sandboxUsers(), store)) {
            SandboxEscapeTest.assumeConfined(local);
            var request = JobRequests.named("pkg", "/usr/bin/python3 train.py && (echo changed >> helper.py"
                    + " || echo code-read-only)").trainers(2).pservers(0).codePackage(id).build();
            local.backend.submit(local.planner.plan(request, "team-a", local.backend.site()));
            JobKey key = new JobKey("team-a", "pkg");
            await().atMost(DEADLINE).until(() -> local.backend.find(key).orElseThrow().status().phase().isFinished());

            for (int rank = 0; rank < 2; rank++) {
                var out = new ByteArrayOutputStream();
                local.backend.writeLogs(key, Role.TRAINER, rank, null, false, out);
                assertThat(out.toString(StandardCharsets.UTF_8)).contains("imported from-the-package", "code-read-only");
                assertThat(dataRoot.resolve("jobs/team-a/pkg/work/trainer-" + rank + "/out.txt"))
                        .hasContent(Integer.toString(rank));
            }
            assertThat(local.backend.find(key).orElseThrow().status().phase()).isEqualTo(JobPhase.SUCCEEDED);
            assertThat(dataRoot.resolve("jobs/team-a/pkg/code/helper.py")).hasContent("GREETING = 'imported'");
        }
    }

    @Test
    void aJobSubmittedAgainUnderItsNameResumesFromTheCheckpointsTheEarlierOneWroteAndNoOtherNamespaceSeesThem()
            throws Exception {
        LocalProperties properties = LocalBackendFixture.properties(dataRoot);
        try (var local = new LocalBackendFixture(properties, true)) {
            String resume = "f=$PADDLE_JOB_CHECKPOINT_DIR/step; echo step=$(cat $f 2>/dev/null || echo none);"
                    + " echo $(( $(cat $f 2>/dev/null || echo 0) + 1 )) > $f";
            assertThat(local.runToEnd("team-a", "resumer", resume)).contains("step=none");
            assertThat(local.runToEnd("team-a", "resumer", resume)).as("the same name again").contains("step=1");
            assertThat(local.runToEnd("team-b", "resumer", resume)).as("another namespace's job of that name")
                    .contains("step=none");
            assertThat(dataRoot.resolve("checkpoints/team-a/resumer/step")).hasContent("2");
        }
    }

    /** Keeps an archive in the store as an upload would, under its content's id. */
    private String store(String namespace, byte[] archive) throws Exception {
        String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(archive));
        Files.write(Files.createDirectories(packages.resolve(namespace)).resolve(hex + ".tar.gz"), archive);
        return "sha256:" + hex;
    }
}

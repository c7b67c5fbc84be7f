package io.paddlejobs.backend.local;

import io.paddlejobs.backend.local.process.HostPrograms;
import io.paddlejobs.backend.local.sandbox.JobUsers;
import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.job.JobKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Red team, round 3, H1 and L1: a tenant's job replaces a directory the service later makes
 * things in (its namespace's {@code checkpoints}, the directory above its own checkpoints, its
 * working directory's) by a link to a directory of root's; the service, as root, then made and
 * chowned {@code <target>/<job>} through it (handing a host directory to the sandbox user), and
 * as an unprivileged service made directories in another tenant's storage. Here every job that
 * follows, new names and the planting job's own again, starts, and nothing outside is made,
 * changed or deleted: not by a start, not by a delete that walks a working directory with a
 * link in it.
 */
@Tag("redteam")
class PlantedLinksTest {

    @TempDir
    Path dataRoot;
    @TempDir
    Path outside;
    private Path victim;

    @BeforeEach
    void victim() throws IOException {
        victim = Files.createDirectories(outside.resolve("victimroot"));
        Files.createDirectories(victim.resolve("owned"));
        Files.writeString(victim.resolve("owned/f"), "root's");
        Files.setPosixFilePermissions(victim.resolve("owned"), PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rwx------"));
    }

    @Test
    void asRootLinksAJobPlantsMakeTheServiceCreateChownOrDeleteNothingOutside() throws Exception {
        SandboxEscapeTest.require(HostPrograms.runningAsRoot(), "the attack needs the service to run as root (CI runs as root)");
        LocalProperties properties = LocalBackendFixture.properties(dataRoot);
        try (var local = new LocalBackendFixture(properties, true, properties.sandboxUsers(), NoCodePackages.INSTANCE)) {
            attackAndCheck(local);
        }
    }

    /** The unprivileged service's case: replicas in a user namespace mapped to the service's own user, no chown. */
    @Test
    void asTheServicesOwnUserLinksAJobPlantsMakeTheServiceCreateNothingOutside() throws Exception {
        LocalProperties properties = LocalBackendFixture.properties(dataRoot);
        try (var local = new LocalBackendFixture(properties, true, JobUsers.serviceUser(), NoCodePackages.INSTANCE)) {
            attackAndCheck(local);
        }
    }

    private void attackAndCheck(LocalBackendFixture local) throws Exception {
        SandboxEscapeTest.assumeConfined(local);
        String plant = String.join("\n",
                // round 3's own: the namespace's checkpoints directory, in its storage
                "cd \"$PADDLE_JOB_DATA\" && mkdir -p checkpoints && mv checkpoints cp.old; ln -s " + victim + " checkpoints",
                // what is above the job's checkpoints and its working directory now
                "cd \"$PADDLE_JOB_CHECKPOINT_DIR/..\" && mv plant plant.old 2>&1; ln -s " + victim + " brandnew 2>&1",
                "cd \"$HOME/..\" && ln -s " + victim + " trainer-1 2>&1; mv trainer-0 t0 2>&1",
                // in its own directories: the job's to do, and nothing the service may follow
                "ln -s " + victim + " \"$HOME/escape\"; ln -s " + victim + " \"$PADDLE_JOB_CHECKPOINT_DIR/escape\"",
                "echo planted");

        String log = local.runToEnd("team-b", "plant", plant);

        assertThat(log).contains("planted");
        for (String next : new String[] {"owned", "brandnew", "plant"}) {
            assertThat(local.runToEnd("team-b", next, "echo ran-" + next)).contains("ran-" + next);
        }
        local.backend.delete(new JobKey("team-b", "plant"));

        try (Stream<Path> left = Files.list(victim)) {
            assertThat(left.map(path -> path.getFileName().toString())).containsExactly("owned");
        }
        assertThat(Files.getAttribute(victim.resolve("owned"), "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(0);
        assertThat(Files.getPosixFilePermissions(victim.resolve("owned"))).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getAttribute(victim, "unix:uid")).isEqualTo(0);
        assertThat(Files.readString(victim.resolve("owned/f"))).isEqualTo("root's");
    }
}

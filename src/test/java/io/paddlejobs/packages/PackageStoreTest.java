package io.paddlejobs.packages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.testing.Settings;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

class PackageStoreTest {

    /** The shipped floor, {@code paddlejobs.min-free-space}. */
    static final DataSize FLOOR = DataSize.ofMegabytes(512);

    @TempDir
    Path dir;

    PackageStore store(DataSize maxSize) {
        return new PackageStore(Settings.of(PackagesProperties.class, "dir", dir, "max-size", maxSize,
                "max-unpacked-size", "1MB"), FLOOR);
    }

    @Test
    void anUploadOverTheSizeLimitIsRefusedAndNothingIsKept() throws Exception {
        byte[] noise = new byte[4096];
        new Random(13).nextBytes(noise); // does not compress: the archive stays over the limit
        byte[] bytes = new Archives().file("noise.bin", new String(noise, java.nio.charset.StandardCharsets.ISO_8859_1))
                .bytes();

        assertThatThrownBy(() -> store(DataSize.ofBytes(2048)).store("default", new ByteArrayInputStream(bytes)))
                .isInstanceOf(PackageTooLargeException.class);
        try (var left = Files.list(dir.resolve("default"))) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aPackageIsFoundOnlyInTheNamespaceThatStoredIt() throws Exception {
        PackageStore store = store(DataSize.ofMegabytes(1));
        byte[] bytes = new Archives().file("a.py", "print(1)\n").bytes();

        var stored = store.store("team-a", new ByteArrayInputStream(bytes));
        var again = store.store("team-a", new ByteArrayInputStream(bytes));

        assertThat(stored.created()).isTrue();
        assertThat(again.created()).isFalse();
        assertThat(again.id()).isEqualTo(stored.id());
        assertThat(store.exists("team-a", stored.id())).isTrue();
        assertThat(store.exists("team-b", stored.id())).isFalse();
        assertThat(store.exists("team-a", "sha256:../../etc")).isFalse();
    }

    /** Two replicas of the service on one shared folder (deploy/'s advice): either serves what the other stored. */
    @Test
    void aPackageOneReplicaStoredIsServedByAnotherOnTheSameFolder(@TempDir Path unpacked) throws Exception {
        PackageStore first = store(DataSize.ofMegabytes(1));
        PackageStore second = store(DataSize.ofMegabytes(1));
        byte[] bytes = new Archives().file("train.py", "print('shared')\n").bytes();

        var stored = first.store("team-a", new ByteArrayInputStream(bytes));

        assertThat(second.exists("team-a", stored.id())).isTrue();
        assertThat(second.store("team-a", new ByteArrayInputStream(bytes)).created()).as("one copy").isFalse();
        second.unpackInto("team-a", stored.id(), unpacked);
        assertThat(unpacked.resolve("train.py")).hasContent("print('shared')");
    }

    @Test
    void belowTheDiskFloorAnUploadIs507AndNothingIsKept() throws Exception {
        PackageStore store = new PackageStore(Settings.of(PackagesProperties.class, "dir", dir),
                DataSize.ofTerabytes(1_000_000)); // more than any disk has free
        byte[] bytes = new Archives().file("a.py", "print(1)\n").bytes();

        assertThatThrownBy(() -> store.store("team-a", new ByteArrayInputStream(bytes)))
                .isInstanceOf(UploadRefusedException.class).hasMessageContaining("min-free-space")
                .satisfies(e -> assertThat(((UploadRefusedException) e).getStatusCode().value()).isEqualTo(507));
        assertThat(store.list("team-a")).isEmpty();
    }

    @Tag("redteam") // Red team round 2, M2: packages without a quota.
    @Test
    void aNamespaceOverItsByteQuotaIsRefusedButAnIdenticalUploadIsNot() throws Exception {
        byte[] first = new Archives().file("a.py", "print(1)\n").bytes();
        PackageStore store = new PackageStore(Settings.of(PackagesProperties.class, "dir", dir,
                "namespace-quota", DataSize.ofBytes(first.length + 10), "namespace-max-count", 0), DataSize.ofBytes(0));
        store.store("team-a", new ByteArrayInputStream(first));

        assertThatThrownBy(() -> store.store("team-a", new ByteArrayInputStream(new Archives().file("b.py", "2").bytes())))
                .isInstanceOf(UploadRefusedException.class).hasMessageContaining("namespace-quota");
        assertThat(store.store("team-a", new ByteArrayInputStream(first)).created()).isFalse();
        assertThat(store.store("team-b", new ByteArrayInputStream(first)).created()).isTrue();
        assertThat(store.list("team-a")).hasSize(1);
    }
}

package io.paddlejobs.packages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

class PackageStoreTest {

    @TempDir
    Path dir;

    PackageStore store(DataSize maxSize) {
        return new PackageStore(new PackagesProperties(dir, maxSize, DataSize.ofMegabytes(1), 100, null));
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
}

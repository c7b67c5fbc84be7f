package io.paddlejobs.packages;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.Settings;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PackageSweepTest {

    @TempDir
    Path dir;

    @Test
    void aPackageUnusedPastExpiryIsDeletedUnlessAnUnfinishedJobNamesIt() throws Exception {
        PackageStore store = new PackageStore(Settings.of(PackagesProperties.class, "dir", dir), PackageStoreTest.FLOOR);
        String unused = store.store("team-a", new ByteArrayInputStream(new Archives().file("a", "1").bytes())).id();
        String held = store.store("team-a", new ByteArrayInputStream(new Archives().file("b", "2").bytes())).id();
        String fresh = store.store("team-b", new ByteArrayInputStream(new Archives().file("c", "3").bytes())).id();
        Clock monthLater = Clock.offset(Clock.systemUTC(), Duration.ofDays(31));

        int deleted = new PackageSweep(store, namespace -> namespace.equals("team-a") ? Set.of(held) : Set.of(),
                Duration.ofDays(30), monthLater).sweep();
        int none = new PackageSweep(store, namespace -> Set.of(), Duration.ofDays(30), Clock.systemUTC()).sweep();

        assertThat(deleted).isEqualTo(2);
        assertThat(none).isZero();
        assertThat(store.exists("team-a", unused)).isFalse();
        assertThat(store.exists("team-a", held)).isTrue();
        assertThat(store.exists("team-b", fresh)).isFalse();
    }
}

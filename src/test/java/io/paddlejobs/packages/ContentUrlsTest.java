package io.paddlejobs.packages;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContentUrlsTest {

    static final String ID = "sha256:" + "c".repeat(64);

    @TempDir
    Path dir;

    private static PackagesProperties in(Path dir, String urlKey) {
        return urlKey == null ? Settings.of(PackagesProperties.class, "dir", dir)
                : Settings.of(PackagesProperties.class, "dir", dir, "url-key", urlKey);
    }

    @Test
    void aGeneratedKeyIsKeptOwnerOnlySoARestartedServiceAnswersTheSameUrls() throws Exception {
        String before = new ContentUrls(in(dir, null)).path("team-a", ID);
        String after = new ContentUrls(in(dir, null)).path("team-a", ID);

        assertThat(after).isEqualTo(before).startsWith("/packages/" + ID + "/content?namespace=team-a&key=");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(ContentUrls.KEY_FILE))))
                .isEqualTo("rw-------");
    }

    @Test
    void aConfiguredKeyIsTheSameOnEveryReplicaAndAnotherKeySignsOtherwise(@TempDir Path elsewhere) {
        String key = "k".repeat(40);

        assertThat(new ContentUrls(in(dir, key)).path("team-a", ID))
                .isEqualTo(new ContentUrls(in(elsewhere, key)).path("team-a", ID))
                .isNotEqualTo(new ContentUrls(in(dir, "j".repeat(40))).path("team-a", ID))
                .isNotEqualTo(new ContentUrls(in(dir, null)).path("team-a", ID));
    }

    @Test
    void aKeyVerifiesOnlyItsOwnNamespaceAndPackage() {
        ContentUrls urls = new ContentUrls(in(dir, null));
        String path = urls.path("team-a", ID);
        String key = path.substring(path.indexOf("&key=") + 5);

        assertThat(urls.verifies("team-a", ID, key)).isTrue();
        assertThat(urls.verifies("team-b", ID, key)).isFalse();
        assertThat(urls.verifies("team-a", "sha256:" + "d".repeat(64), key)).isFalse();
        assertThat(urls.verifies("team-a", ID, null)).isFalse();
    }
}

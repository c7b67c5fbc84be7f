package io.paddlejobs.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Violation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's secret store of the local and Slurm backends, and the mask over what replicas wrote. */
class SecretStoreTest {

    private static final Map<String, JobRequest.SecretKey> ASKED =
            Map.of("S3_KEY", new JobRequest.SecretKey("s3", "secret"));

    @TempDir
    Path root;

    private Path put(String namespace, String secret, String key, String value, String mode) throws IOException {
        Path dir = Files.createDirectories(root.resolve(namespace).resolve(secret));
        Path file = dir.resolve(key);
        Files.writeString(file, value);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    @Test
    void aValueIsReadWithoutItsFinalNewlineForItsOwnNamespaceOnly() throws IOException {
        put("team-a", "s3", "secret", "hunter2\n", "rw-------");
        SecretStore store = SecretStore.at(root);

        assertThat(store.check(ASKED, "team-a")).isEmpty();
        assertThat(store.values(ASKED, "team-a")).containsExactlyEntriesOf(Map.of("S3_KEY", "hunter2"));
        assertThat(store.check(ASKED, "team-b")).singleElement().satisfies(v -> {
            assertThat(v.fields()).containsExactly("env_from_secrets.S3_KEY");
            assertThat(v.message()).contains("namespace team-b has no secret s3");
        });
        assertThatThrownBy(() -> store.values(ASKED, "team-b")).isInstanceOf(UncheckedIOException.class)
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aFileOthersCouldReadIsNoSecretAndIsRefusedWithoutItsValue() throws IOException {
        put("team-a", "s3", "secret", "hunter2", "rw-r--r--");
        assertThat(SecretStore.at(root).check(ASKED, "team-a")).singleElement().extracting(Violation::message)
                .satisfies(message -> assertThat(message.toString()).contains("mode 0600").doesNotContain("hunter2"));
    }

    @Test
    void aLinkInTheStoreIsNotFollowed() throws IOException {
        Path elsewhere = Files.writeString(root.resolve("elsewhere"), "hunter2");
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rw-------"));
        Files.createDirectories(root.resolve("team-a/s3"));
        Files.createSymbolicLink(root.resolve("team-a/s3/secret"), elsewhere);
        assertThat(SecretStore.at(root).check(ASKED, "team-a")).singleElement().extracting(Violation::message)
                .satisfies(message -> assertThat(message.toString()).contains("not a file in the store"));
    }

    @Test
    void withoutAStoreEverySecretIsRefusedNamingTheSetting() {
        assertThat(SecretStore.NONE.check(ASKED, "team-a")).singleElement().extracting(Violation::message)
                .satisfies(message -> assertThat(message.toString()).contains("paddlejobs.secrets.store"));
    }

    @Test
    void theMaskHidesEveryValueEvenWhenAWriteSplitsIt() throws IOException {
        put("team-a", "s3", "secret", "hunter2", "rw-------");
        SecretMask mask = SecretStore.at(root).mask(ASKED, "team-a");
        assertThat(mask.apply("key=hunter2 again hunter2")).isEqualTo("key=[secret] again [secret]");

        var out = new ByteArrayOutputStream();
        SecretMask.Masked masked = mask.wrap(out);
        masked.write("login hun".getBytes(StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8)).as("a possible start is held back").isEqualTo("login ");
        masked.write("ter2 ok, hun".getBytes(StandardCharsets.UTF_8));
        masked.finish();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("login [secret] ok, hun");
    }

    @Test
    void aValueOfSeveralLinesIsHiddenLineByLine() {
        SecretMask mask = SecretMask.of(java.util.List.of("-----BEGIN KEY-----\nabcdef\n-----END KEY-----"));
        assertThat(mask.apply("x abcdef y")).isEqualTo("x [secret] y");
    }
}

package io.paddlejobs.packages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SafeArchiveTest {

    @TempDir
    Path root;

    final SafeArchive archive = new SafeArchive(1024, 10);

    @Test
    void unpacksFilesAndDirectoriesAndKeepsTheExecutableBit() throws Exception {
        Path into = Files.createDirectory(root.resolve("work"));
        byte[] bytes = new Archives().directory("./").directory("./lib").file("./lib/util.py", "X = 1\n")
                .file("./run.sh", "echo hi\n", 0755).bytes();

        archive.unpack(new ByteArrayInputStream(bytes), into);

        assertThat(into.resolve("lib/util.py")).hasContent("X = 1");
        assertThat(Files.isExecutable(into.resolve("run.sh"))).isTrue();
        assertThat(Files.isExecutable(into.resolve("lib/util.py"))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"../evil.py", "a/../../evil.py", "/tmp/evil.py", "a/..\\..\\evil.py"})
    void refusesNamesThatReachOutsideTheDirectory(String name) {
        byte[] bytes = new Archives().file(name, "evil").bytes();

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(bytes)))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining(name);
        assertThat(root.getParent().resolve("evil.py")).doesNotExist();
    }

    @Test
    void refusesSymbolicAndHardLinks() {
        byte[] symlink = new Archives().symlink("data", "/etc").bytes();
        byte[] hardlink = new Archives().file("a", "x").hardlink("b", "/etc/passwd").bytes();

        assertThatThrownBy(() -> archive.unpack(new ByteArrayInputStream(symlink), root))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("link");
        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(hardlink)))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("link");
        assertThat(root.resolve("data")).doesNotExist();
    }

    @Test
    void refusesAnArchiveThatUnpacksToMoreThanTheCap() {
        byte[] bytes = new Archives().file("a", "x".repeat(600)).file("b", "y".repeat(600)).bytes();

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(bytes)))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("unpacks to more than");
    }

    @Test
    void refusesMoreEntriesThanTheCap() {
        Archives many = new Archives();
        for (int i = 0; i < 11; i++) {
            many.file("f" + i, "");
        }
        byte[] bytes = many.bytes();

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(bytes)))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("more than 10 entries");
    }

    @Test
    void refusesWhatIsNotAGzippedTar() throws Exception {
        var gzippedText = new java.io.ByteArrayOutputStream();
        try (var out = new GZIPOutputStream(gzippedText)) {
            out.write("not a tar at all, just some text that is longer than nothing".repeat(20).getBytes());
        }

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream("plain text".getBytes())))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("could not be read");
        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(gzippedText.toByteArray())))
                .isInstanceOf(InvalidPackageException.class);
    }

    @Test
    void refusesAFileGivenTwice() throws Exception {
        Path into = Files.createDirectory(root.resolve("twice"));
        byte[] bytes = new Archives().file("a", "1").file("./a", "2").bytes();

        assertThatThrownBy(() -> archive.unpack(new ByteArrayInputStream(bytes), into))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("twice");
    }
}

package io.paddlejobs.packages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("redteam") // Red team round 2, H1: tar header bombs.
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

    /** The report's three bombs at its own scale: each is refused at its first header, quickly, naming the rule. */
    static Stream<Arguments> headerBombs() {
        return Stream.of(
                Arguments.of("pax-keys 3M", (Supplier<InputStream>) () -> Bombs.paxKeys(3_000_000),
                        "PAX header holds 348000000 bytes, over the 64 KiB"),
                Arguments.of("longname 900 MiB", (Supplier<InputStream>) () -> Bombs.longName(900),
                        "long-name header holds 943718400 bytes, over the 64 KiB"),
                Arguments.of("chain of 200k L", (Supplier<InputStream>) () -> Bombs.chain(200_000, 'L'),
                        "more than 4 long-name or PAX headers precede one entry"),
                Arguments.of("chain of 200k x", (Supplier<InputStream>) () -> Bombs.chain(200_000, 'x'),
                        "more than 4 long-name or PAX headers precede one entry"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headerBombs")
    void aHeaderBombIsRefusedAtItsFirstHeaders(String bomb, Supplier<InputStream> archiveOf, String rule) {
        SafeArchive defaults = new SafeArchive(1L << 30, 10_000);

        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() -> defaults.check(archiveOf.get()))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining(rule));
    }

    @Test
    void extensionHeadersCountAgainstTheEntryCap() {
        Archives many = new Archives();
        for (int i = 0; i < 6; i++) {
            many.file("long-" + "n".repeat(100) + i, ""); // each needs a PAX header before it: 12 headers
        }
        byte[] bytes = many.bytes();

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(bytes)))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("more than 10 entries");
    }

    @Test
    void longNamesInPaxAndGnuFormAndUstarPrefixesStillUnpack() throws Exception {
        String deep = "d".repeat(90) + "/" + "e".repeat(90) + "/f.py";
        Path pax = Files.createDirectory(root.resolve("pax"));
        Path gnu = Files.createDirectory(root.resolve("gnu"));

        archive.unpack(new ByteArrayInputStream(new Archives().file(deep, "P").bytes()), pax);
        archive.unpack(new ByteArrayInputStream(new Archives().gnuLongNames().file(deep, "G").bytes()), gnu);

        assertThat(pax.resolve(deep)).hasContent("P");
        assertThat(gnu.resolve(deep)).hasContent("G");
    }

    @Test
    void aGlobalPaxHeaderMayNotRenameEntries() {
        byte[] global = "21 path=/etc/evil.py\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] tar = java.nio.ByteBuffer.allocate(512 + 512 + 1024 + 1024).put(Bombs.entry("pax", global, 'g'))
                .put(Bombs.entry("x", new byte[] {'1'}, '0')).array();

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(gzip(tar))))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("global PAX header sets 'path'");
    }

    /** What unpacking refuses, the upload's check refuses too: these got 201 and then failed every job. */
    static Stream<Arguments> clashes() {
        String component = "c".repeat(300);
        String longPath = ("p".repeat(200) + "/").repeat(25) + "f";
        return Stream.of(
                Arguments.of(new Archives().file("a", "1").file("a", "2"), "'a' is in the archive twice"),
                Arguments.of(new Archives().file("a", "1").directory("a"), "as a file and as a directory"),
                Arguments.of(new Archives().file("a", "1").file("a/b", "2"), "'a/b' lies under a file"),
                Arguments.of(new Archives().directory("a").file("a", "1"), "as a file and as a directory"),
                Arguments.of(new Archives().file(component, "1"), "has a component over 255 bytes"),
                Arguments.of(new Archives().file(longPath, "1"), "is a name over 3072 bytes"));
    }

    @ParameterizedTest
    @MethodSource("clashes")
    void theCheckRefusesWhatUnpackingWouldMeet(Archives archiveOf, String rule) {
        byte[] bytes = archiveOf.bytes();

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(bytes)))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining(rule);
    }

    @Test
    void aRefusedNameIsQuotedShortSoItCannotSwellTheAnswer() {
        byte[] bytes = new Archives().file("../" + "x".repeat(3000), "1").bytes();

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(bytes)))
                .isInstanceOf(InvalidPackageException.class)
                .satisfies(e -> assertThat(((InvalidPackageException) e).getBody().getDetail()).hasSizeLessThan(300));
    }

    @ParameterizedTest
    @CsvSource({"3, a character device", "4, a block device", "6, a FIFO", "7, a contiguous file",
            "V, a volume label", "D, a GNU dump directory", "S, a sparse file", "Z, an entry of unknown type 'Z'"})
    void specialEntriesAreRefused(char type, String kind) {
        byte[] bytes = new Archives().special("special", type).bytes();

        assertThatThrownBy(() -> archive.check(new ByteArrayInputStream(bytes)))
                .isInstanceOf(InvalidPackageException.class).hasMessageContaining("'special' is " + kind);
    }

    private static byte[] gzip(byte[] raw) throws java.io.IOException {
        var out = new java.io.ByteArrayOutputStream();
        try (var gzip = new GZIPOutputStream(out)) {
            gzip.write(raw);
        }
        return out.toByteArray();
    }
}

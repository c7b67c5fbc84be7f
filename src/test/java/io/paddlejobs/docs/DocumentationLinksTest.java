package io.paddlejobs.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md is the front page and docs/ the manual behind it: every relative link and anchor in the
 * repository's Markdown leads somewhere, every page can be found from the README, and the README stays
 * short. External links are not fetched (the build has no network).
 */
class DocumentationLinksTest {

    private static final Path ROOT = Path.of(System.getProperty("project.basedir", "."));
    private static final int README_MAX_LINES = 200;
    // Names under paddlejobs. that are not settings records' keys: the audit logger, and the old
    // name application.yaml still maps onto paddlejobs.security.default-namespace.
    private static final Set<String> NOT_SETTINGS = Set.of("paddlejobs.audit", "paddlejobs.defaults.namespace");

    private final Documentation docs = Documentation.under(ROOT);

    @Test
    void everyRelativeLinkPointsToAFileInTheRepository() {
        assertThat(docs.pages()).contains(ROOT.resolve("README.md").toAbsolutePath().normalize());
        assertThat(docs.brokenLinks()).isEmpty();
    }

    @Test
    void everyAnchorNamesAHeadingOfThePageItPointsTo() {
        assertThat(docs.brokenAnchors()).isEmpty();
    }

    @Test
    void everyPageCanBeReachedFromTheReadme() {
        assertThat(docs.unreachableFrom(Path.of("README.md")))
                .as("pages no link from README.md leads to (link them from the README or from a page under docs/)")
                .isEmpty();
    }

    @Test
    void everySettingAPageNamesIsInTheConfigurationReference() {
        assertThat(docs.settingsMissingFrom(Path.of("docs/configuration.md"), NOT_SETTINGS))
                .as("settings named in the docs that docs/configuration.md does not list (renamed or gone?)")
                .isEmpty();
    }

    @Test
    void theReadmeStaysShort() throws IOException {
        assertThat(Files.readAllLines(ROOT.resolve("README.md")))
                .as("README.md is the front page; the detail belongs in a page under docs/")
                .hasSizeLessThanOrEqualTo(README_MAX_LINES);
    }

    @Test
    void aMissingFileAMissingHeadingAndAnUnlinkedPageAreEachReported(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(dir.resolve("README.md"), """
                # Start
                See [the guide](docs/guide.md#set-up-run-it), [gone](docs/gone.md) and [here](#start).
                `[not a link](nowhere.md)`
                ```
                [not a link either](nowhere.md)
                ```
                """);
        Files.writeString(dir.resolve("docs/guide.md"), "# Guide\n\n## Set-up: `./run` it\n\nBack to [the start](../README.md#stat).\n");
        Files.writeString(dir.resolve("docs/orphan.md"), "# Nobody links here\n");

        Documentation sample = Documentation.under(dir);

        assertThat(sample.brokenLinks()).containsExactly("README.md:2: docs/gone.md (no such file)");
        assertThat(sample.brokenAnchors()).containsExactly(
                "docs/guide.md:5: ../README.md#stat (no such heading in README.md)");
        assertThat(sample.unreachableFrom(Path.of("README.md"))).containsExactly(Path.of("docs/orphan.md"));
    }

    @Test
    void aSettingTheReferenceDoesNotListIsReportedAndAGroupOrAValueIsNot(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("reference.md"), "| `paddlejobs.local.gpus` | list |\n| `paddlejobs.backend` | text |\n");
        Files.writeString(dir.resolve("README.md"), """
                Set `paddlejobs.local.*`, `--paddlejobs.backend=slurm` or `paddlejobs.local.gpus`.
                Not `paddlejobs.local.gpu`, `--paddlejobs.backnd=slurm` nor `paddlejobs.logs.max-streams` (`paddlejobs.audit` is a logger).
                """);

        assertThat(Documentation.under(dir).settingsMissingFrom(Path.of("reference.md"), Set.of("paddlejobs.audit")))
                .containsExactly("README.md:2: paddlejobs.local.gpu", "README.md:2: paddlejobs.backnd",
                        "README.md:2: paddlejobs.logs.max-streams");
    }

    @Test
    void headingIdsAreGitHubs() {
        assertThat(MarkdownPage.headingId("From Python: `dist_train`")).isEqualTo("from-python-dist_train");
        assertThat(MarkdownPage.headingId("The local backend as a scheduler: GPUs, memory, CPUs"))
                .isEqualTo("the-local-backend-as-a-scheduler-gpus-memory-cpus");
        assertThat(MarkdownPage.headingId("A job's life")).isEqualTo("a-jobs-life");
    }
}

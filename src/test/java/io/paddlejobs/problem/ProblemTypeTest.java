package io.paddlejobs.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The problem types a client may see are stated once (ProblemType) and all documented for users. */
class ProblemTypeTest {

    private static final Path DOCS = Path.of("docs", "api.md");
    private static final Path MAIN = Path.of("src", "main", "java");
    private static final Pattern URN = Pattern.compile(Pattern.quote(ProblemType.PREFIX) + "[a-z0-9-]+");

    @Test
    void theApiPageDocumentsExactlyTheTypesTheServiceAnswersWith() throws IOException {
        List<String> documented = URN.matcher(Files.readString(DOCS)).results().map(m -> m.group()).distinct().toList();
        List<String> answered = Arrays.stream(ProblemType.values()).map(type -> type.uri().toString()).toList();
        assertThat(documented).as("the problem types %s lists", DOCS).containsExactlyInAnyOrderElementsOf(answered);
    }

    /** The contract's example of a problem document is the one exception: an annotation needs a constant. */
    @Test
    void noOtherMainSourceSpellsAProblemType() throws IOException {
        try (Stream<Path> sources = Files.walk(MAIN)) {
            List<Path> spelling = sources.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> !path.endsWith(Path.of("problem", "ProblemType.java")))
                    .filter(path -> !path.endsWith(Path.of("openapi", "ProblemSchema.java")))
                    .filter(ProblemTypeTest::spellsAType)
                    .toList();
            assertThat(spelling).as("main sources that spell out a problem type instead of using ProblemType").isEmpty();
        }
    }

    private static boolean spellsAType(Path source) {
        try {
            return Files.readString(source).contains(ProblemType.PREFIX);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

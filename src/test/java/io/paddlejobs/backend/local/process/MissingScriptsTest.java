package io.paddlejobs.backend.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MissingScriptsTest {

    @Test
    void anAbsoluteScriptThatIsNotHereIsNamedAndOneThatIsHereIsNot(@TempDir Path dir) throws IOException {
        Path present = Files.writeString(dir.resolve("train.py"), "print(1)\n");

        assertThat(MissingScripts.missing("python3 -u " + present)).isEmpty();
        assertThat(MissingScripts.missing("python3 -u /nonexistent/train.py --epochs 3"))
                .containsExactly("/nonexistent/train.py");
        assertThat(MissingScripts.missing("sh /nowhere/run.sh && python3 " + present)).containsExactly("/nowhere/run.sh");
    }

    @Test
    void relativePathsShellSyntaxAndOtherFilesAreNoMistakeToWarnOf() {
        assertThat(MissingScripts.missing("python3 train.py")).isEmpty();
        assertThat(MissingScripts.missing("python3 $HOME/train.py")).isEmpty();
        assertThat(MissingScripts.missing("python3 /data/*.py")).isEmpty();
        assertThat(MissingScripts.missing("python3 -c 'print(1)' > /tmp/out.txt")).isEmpty();
        assertThat(MissingScripts.missing(null)).isEmpty();
    }
}

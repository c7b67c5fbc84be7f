package io.paddlejobs.backend.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the local backend may serve several tenants, and how a replica's command is built. */
class SandboxTest {

    private static final Path DATA = Path.of("/srv/paddle-jobs/data");

    @Test
    void tokenModeWithoutASandboxRefusesToStartUnlessTheOperatorAcceptsSharedFiles() {
        Sandbox none = Sandbox.create(Sandbox.Mode.OFF, true, DATA, List.of());

        assertThatThrownBy(() -> none.requireIsolation(true, false, "token"))
                .hasMessageContaining("paddlejobs.local.allow-shared-files=true");
        assertThatCode(() -> none.requireIsolation(true, true, "token")).doesNotThrowAnyException();
        assertThatCode(() -> none.requireIsolation(false, false, "none")).doesNotThrowAnyException();
    }

    @Test
    void withoutASandboxAReplicaIsAPlainShellInItsOwnProcessGroup() {
        List<String> command = Sandbox.create(Sandbox.Mode.OFF, false, DATA, List.of())
                .command("python train.py", DATA.resolve("jobs/a/b/work"), DATA.resolve("storage/a"));

        assertThat(command).endsWith("sh", "-c", "python train.py").doesNotContain("bwrap");
    }
}

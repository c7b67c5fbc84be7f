package io.paddlejobs.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenStoreTest {

    static final SecurityProperties.Limits DEFAULTS = new SecurityProperties.Limits(10, 5, 0);
    static final String ALICE_HASH = TokenHash.hex("alice-token");

    @TempDir
    Path dir;

    @Test
    void yamlFileMapsAHashToItsUserNamespacesAndLimits() throws IOException {
        Path file = Files.writeString(dir.resolve("tokens.yaml"), """
                tokens:
                  - user: alice
                    sha256: %s
                    namespaces: [team-a, shared]
                    submissions-per-minute: 3
                """.formatted(ALICE_HASH.toUpperCase()));

        TokenStore store = TokenStore.load(file, DEFAULTS);

        Tenant alice = store.authenticate("alice-token").orElseThrow();
        assertThat(alice.user()).isEqualTo("alice");
        assertThat(alice.defaultNamespace()).hasValue("team-a");
        assertThat(alice.namespaces()).containsExactly("team-a", "shared");
        assertThat(alice.limits()).isEqualTo(new SecurityProperties.Limits(3, 5, 0));
        assertThat(store.authenticate("alice-token ")).isEmpty();
        assertThat(store.authenticate("")).isEmpty();
    }

    @Test
    void propertiesFileIsReadToo() throws IOException {
        Path file = Files.writeString(dir.resolve("tokens.properties"), """
                tokens[0].user=alice
                tokens[0].sha256=%s
                tokens[0].namespaces=team-a,shared
                """.formatted(ALICE_HASH));

        Tenant alice = TokenStore.load(file, DEFAULTS).authenticate("alice-token").orElseThrow();

        assertThat(alice.namespaces()).containsExactly("team-a", "shared");
        assertThat(alice.limits()).isEqualTo(DEFAULTS);
    }

    @Test
    void anEntryThatIsNotAHashStopsTheServiceNamingTheEntry() {
        assertThatThrownBy(() -> TokenStore.of(List.of(entry("alice", "alice-token", List.of("team-a"))), DEFAULTS, "f"))
                .hasMessageContaining("tokens[0]").hasMessageContaining("64 hex digits");
    }

    @Test
    void aTokenWithoutNamespacesOrWithABadOneIsRefused() {
        assertThatThrownBy(() -> TokenStore.of(List.of(entry("alice", ALICE_HASH, List.of())), DEFAULTS, "f"))
                .hasMessageContaining("namespaces is missing");
        assertThatThrownBy(() -> TokenStore.of(List.of(entry("alice", ALICE_HASH, List.of("Team_A"))), DEFAULTS, "f"))
                .hasMessageContaining("'Team_A' is not a DNS label");
    }

    @Test
    void theSameTokenTwiceIsRefused() {
        assertThatThrownBy(() -> TokenStore.of(List.of(entry("alice", ALICE_HASH, List.of("a")),
                entry("bob", ALICE_HASH, List.of("b"))), DEFAULTS, "f")).hasMessageContaining("listed twice");
    }

    @Test
    void tokenModeWithoutAFileOrWithAMissingOneDoesNotStart() {
        assertThatThrownBy(() -> TokenStore.load(null, DEFAULTS)).hasMessageContaining("token-file");
        assertThatThrownBy(() -> TokenStore.load(dir.resolve("absent.yaml"), DEFAULTS)).hasMessageContaining("cannot be read");
    }

    @Test
    void aFileWithNoTokensDoesNotStart() throws IOException {
        Path file = Files.writeString(dir.resolve("empty.yaml"), "tokens: []\n");

        assertThatThrownBy(() -> TokenStore.load(file, DEFAULTS)).hasMessageContaining("lists no tokens");
    }

    private static TokenStore.Entry entry(String user, String sha256, List<String> namespaces) {
        return new TokenStore.Entry(user, sha256, namespaces, null, null, null);
    }
}

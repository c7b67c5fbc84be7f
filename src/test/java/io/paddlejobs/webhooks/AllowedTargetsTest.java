package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllowedTargetsTest {

    /** Names a test's DNS answers, as a name an attacker controls may be pointed anywhere. */
    private static final Map<String, String> DNS = Map.of(
            "localhost", "127.0.0.1",
            "hooks.example.com", "93.184.215.14",
            "rebound.example.com", "127.0.0.1",
            "metadata.example.com", "169.254.169.254",
            "inside.example.com", "10.1.2.3",
            "hooks.corp.example", "10.20.0.5");

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        String address = DNS.getOrDefault(host, host.matches("[0-9.]+|.*:.*") ? host : null);
        if (address == null) {
            throw new UnknownHostException(host);
        }
        return new InetAddress[] {InetAddress.getByName(address)};
    }

    private static AllowedTargets targets(boolean shared, String... allowed) {
        return new AllowedTargets(List.of(allowed), shared, AllowedTargetsTest::resolve);
    }

    @Test
    void withoutTenantsAndNothingSetOnlyLoopbackIsAllowed() {
        AllowedTargets loopback = targets(false);
        assertThat(loopback.refusal("http://127.0.0.1:9000/hook")).isNull();
        assertThat(loopback.refusal("http://localhost:9000/hook")).isNull();
        assertThat(loopback.refusal("http://[::1]:9000/hook")).isNull();
        assertThat(loopback.refusal("https://hooks.example.com/hook"))
                .contains("hooks.example.com").contains("loopback only").contains("paddlejobs.webhooks.allowed-hosts");
        assertThat(loopback.refusal("http://10.0.0.1/hook")).contains("10.0.0.1").contains("loopback only");
    }

    @Test
    void withTenantsAndNothingSetNothingIsAllowed() {
        assertThat(targets(true).refusal("http://127.0.0.1:9000/hook"))
                .contains("none are allowed until paddlejobs.webhooks.allowed-hosts names them");
    }

    @Test
    void listedNamesAndDomainsAreAllowedWhenTheyResolveToPublicAddresses() {
        AllowedTargets listed = targets(true, "hooks.example.com", "*.example.org");
        assertThat(listed.refusal("https://hooks.example.com/paddle")).isNull();
        assertThat(listed.refusal("https://other.example.com/paddle")).contains("other.example.com");
        assertThat(listed.refusal("https://127.0.0.1/paddle")).contains("127.0.0.1");
    }

    @Test
    void anAllowedNameThatResolvesToAForbiddenAddressIsRefused() {
        AllowedTargets listed = targets(true, "*.example.com");
        assertThat(listed.refusal("http://rebound.example.com/")).contains("resolves to 127.0.0.1");
        assertThat(listed.refusal("http://metadata.example.com/")).contains("resolves to 169.254.169.254");
        assertThat(listed.refusal("http://inside.example.com/")).contains("resolves to 10.1.2.3");
        assertThat(listed.refusal("http://gone.example.com/")).contains("does not resolve");
    }

    @Test
    void privateAddressesAreAllowedOnlyWhenTheirBlockIsListed() {
        AllowedTargets listed = targets(true, "hooks.corp.example", "10.20.0.0/16");
        assertThat(listed.refusal("http://hooks.corp.example:8443/")).isNull();
        assertThat(listed.refusal("http://10.20.9.9/")).isNull();
        assertThat(listed.refusal("http://10.21.0.1/")).contains("10.21.0.1");
    }

    @Test
    void anEntryThatIsNoAddressOrBlockStopsTheStart() {
        assertThatThrownBy(() -> targets(true, "10.0.0.0/40"))
                .hasMessageContaining("paddlejobs.webhooks.allowed-hosts").hasMessageContaining("10.0.0.0/40");
    }
}

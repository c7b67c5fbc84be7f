package io.paddlejobs.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Tag("redteam")
class AllowedTargetsTest {

    /** Names a test's DNS answers, as a name an attacker controls may be pointed anywhere. */
    private static final Map<String, String> DNS = Map.of(
            "localhost", "127.0.0.1",
            "hooks.example.com", "93.184.215.14",
            "rebound.example.com", "127.0.0.1",
            "metadata.example.com", "169.254.169.254",
            "inside.example.com", "10.1.2.3",
            "hooks.corp.example", "10.20.0.5",
            "nat64.example.net", "64:ff9b::7f00:1",
            "sixtofour.example.net", "2002:7f00:1::1");

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

    /** Round 3's M2: an address in the URL is allowed only where a listed block holds it; being public is not enough. */
    @Test
    void anAddressInTheUrlIsAllowedOnlyWhenAListedBlockContainsIt() {
        AllowedTargets listed = targets(true, "hooks.example.com", "127.0.0.0/8");
        for (String url : List.of("http://203.0.113.5/x", "http://8.8.8.8/x", "http://1.1.1.1:25/x",
                "http://93.184.215.14/x", "http://[2606:4700::1111]/x")) {
            assertThat(listed.refusal(url)).as(url).contains("no block of paddlejobs.webhooks.allowed-hosts");
        }
        assertThat(listed.refusal("http://127.0.0.9:8080/x")).isNull();
        assertThat(listed.refusal("https://hooks.example.com/x")).as("its name resolves to a public address").isNull();
        assertThat(listed.check("https://hooks.example.com/x").addresses()).extracting(InetAddress::getHostAddress)
                .containsExactly("93.184.215.14");
    }

    /** Round 3's L2: a port outside 1 to 65535 is refused at submit rather than failing every attempt for 3 hours. */
    @Test
    void aPortOutsideOneTo65535IsRefused() {
        AllowedTargets loopback = targets(false);
        assertThat(loopback.refusal("http://127.0.0.1:99999/h")).contains("port 99999").contains("1 to 65535");
        assertThat(loopback.refusal("http://127.0.0.1:0/h")).contains("port 0");
        assertThat(loopback.refusal("http://127.0.0.1:65535/h")).isNull();
        assertThat(loopback.refusal("http://127.0.0.1/h")).isNull();
    }

    /**
     * Round 3's L3: transition and test ranges are not public. An IPv6 address that carries an IPv4 one is as
     * public as that address (a gateway on the way delivers it there); one whose IPv4 address is hidden is not.
     */
    @ParameterizedTest
    @CsvSource({
        "::127.0.0.1, false", "::ffff:127.0.0.1, false", "64:ff9b::7f00:1, false", "2002:7f00:1::1, false",
        "64:ff9b::a00:1, false", "2002:a9fe:a9fe::1, false", "2001:0:4136:e378:8000:63bf:3fff:fdd2, false",
        "64:ff9b:1::1, false", "2001:db8::1, false", "2001:2::1, false", "100::1, false",
        "198.18.0.1, false", "198.19.255.1, false", "192.0.2.1, false", "198.51.100.1, false", "203.0.113.5, false",
        "192.88.99.1, false", "169.254.169.254, false", "10.1.2.3, false", "0.1.2.3, false", "240.0.0.1, false",
        "64:ff9b::808:808, true", "2002:808:808::1, true", "::ffff:8.8.8.8, true", "8.8.8.8, true",
        "2606:4700::1111, true", "93.184.215.14, true"})
    void transitionAndTestRangesAreNotPublic(String address, boolean isPublic) throws UnknownHostException {
        assertThat(PublicAddresses.isPublic(InetAddress.getByName(address))).as(address).isEqualTo(isPublic);
    }

    @Test
    void aNameThatResolvesIntoATransitionRangeIsRefused() {
        AllowedTargets listed = targets(true, "*.example.net");
        assertThat(listed.refusal("http://nat64.example.net/")).contains("resolves to 64:ff9b:0:0:0:0:7f00:1");
        assertThat(listed.refusal("http://sixtofour.example.net/")).contains("resolves to 2002:7f00:1:0:0:0:0:1");
    }

    @Test
    void anEntryThatIsNoAddressOrBlockStopsTheStart() {
        assertThatThrownBy(() -> targets(true, "10.0.0.0/40"))
                .hasMessageContaining("paddlejobs.webhooks.allowed-hosts").hasMessageContaining("10.0.0.0/40");
    }
}

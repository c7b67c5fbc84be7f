package io.paddlejobs.security.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.paddlejobs.cluster.ControlPlane;
import io.paddlejobs.cluster.RealCluster;
import io.paddlejobs.cluster.ServiceAccounts;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Mode {@code kubernetes}'s two questions answered by a real API server, asked with deploy/'s
 * ServiceAccount: tenants are ServiceAccounts with Roles in their own namespaces, and their
 * tokens come from the TokenRequest API.
 */
@Tag("cluster")
@ExtendWith(RealCluster.class)
class ClusterReviewsRealClusterTest {

    private static final List<String> VERBS = List.of("get", "list", "watch", "create", "delete", "patch");

    private static KubernetesClient serviceClient;
    private static ClusterReviews reviews;
    private static String aliceToken;
    private static String bobToken;

    @BeforeAll
    static void twoTenants() {
        ControlPlane plane = RealCluster.plane();
        KubernetesClient admin = plane.admin();
        aliceToken = tenant(admin, "tenant-a", "alice");
        bobToken = tenant(admin, "tenant-b", "bob");
        serviceClient = new KubernetesClientBuilder().withConfig(plane.config(ServiceAccounts.deployedServiceToken(admin))).build();
        reviews = new ClusterReviews(serviceClient, true);
    }

    @AfterAll
    static void close() {
        if (reviews != null) {
            reviews.close();
        }
    }

    /** A namespace, a ServiceAccount in it and a Role there that lets it do anything to Jobs; returns its token. */
    private static String tenant(KubernetesClient admin, String ns, String account) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        return ServiceAccounts.jobsUser(admin, ns, account, VERBS);
    }

    @Test
    void aTokenFromTheTokenRequestApiIsItsServiceAccount() {
        assertThat(reviews.authenticate(aliceToken)).hasValueSatisfying(identity -> {
            assertThat(identity.user()).isEqualTo("system:serviceaccount:tenant-a:alice");
            assertThat(identity.groups()).contains("system:serviceaccounts:tenant-a", "system:authenticated");
        });
    }

    @Test
    void aForgedTokenIsNobody() {
        assertThat(reviews.authenticate(aliceToken.substring(0, aliceToken.length() - 4) + "AAAA")).isEmpty();
        assertThat(reviews.authenticate("not-a-token")).isEmpty();
    }

    @Test
    void aTokenIssuedForTheApiServerRatherThanThisServiceIsNobody() {
        String forTheApiServer = ServiceAccounts.token(RealCluster.plane().admin(), "tenant-a", "alice");

        assertThat(reviews.authenticate(forTheApiServer)).isEmpty();
    }

    static Stream<Arguments> verbs() {
        return VERBS.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("verbs")
    void eachTenantMayUseJobsInItsOwnNamespaceOnly(String verb) {
        var alice = reviews.authenticate(aliceToken).orElseThrow();
        var bob = reviews.authenticate(bobToken).orElseThrow();

        assertThat(reviews.allowed(alice, "tenant-a", verb)).isTrue();
        assertThat(reviews.allowed(alice, "tenant-b", verb)).isFalse();
        assertThat(reviews.allowed(bob, "tenant-b", verb)).isTrue();
        assertThat(reviews.allowed(bob, "tenant-a", verb)).isFalse();
    }
}

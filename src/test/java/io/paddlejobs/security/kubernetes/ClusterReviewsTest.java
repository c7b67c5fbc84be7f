package io.paddlejobs.security.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.kubernetes.KubernetesClientFactory;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.security.Action;
import io.paddlejobs.security.SecurityProperties;
import io.paddlejobs.security.Tenant;
import io.paddlejobs.testing.Settings;
import io.paddlejobs.testing.MovableClock;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The TokenReview and SubjectAccessReview mode {@code kubernetes} sends, what it makes of the
 * answers, how long it keeps them (on a clock the test moves), and that a failed review denies.
 */
class ClusterReviewsTest {

    private static final ReviewingCluster CLUSTER = new ReviewingCluster();
    private static final Duration TTL = Duration.ofSeconds(10);

    private final MovableClock clock = new MovableClock();
    private KubernetesClient client;
    private KubernetesTokenAuthenticator tokens;
    private KubernetesAuthorizer authorizer;

    @BeforeEach
    void connect() throws InterruptedException {
        client = KubernetesClientFactory.create(connection(CLUSTER.url()));
        start(client);
        CLUSTER.takeRequests();
    }

    private void start(KubernetesClient kubernetes) {
        var reviews = new ClusterReviews(kubernetes, true);
        var security = security(Map.of("alice", "team-a"));
        tokens = new KubernetesTokenAuthenticator(reviews, security, clock);
        authorizer = new KubernetesAuthorizer(reviews, clock, TTL);
    }

    @AfterAll
    static void stop() {
        CLUSTER.close();
    }

    static KubernetesConnection connection(String masterUrl) {
        return Settings.of(KubernetesConnection.class, "master-url", masterUrl, "request-timeout", "15s");
    }

    static SecurityProperties security(Map<String, String> defaultNamespaces) {
        return new SecurityProperties(SecurityProperties.Mode.KUBERNETES, null, SecurityProperties.Limits.NONE,
                List.of(), new SecurityProperties.Kubernetes(TTL, defaultNamespaces), List.of(), null, "default");
    }

    @Test
    void aValidTokenIsTheUserAndGroupsTheTokenReviewNames() throws InterruptedException {
        Tenant alice = tokens.authenticate("alice-token").orElseThrow();

        assertThat(alice.user()).isEqualTo("alice");
        assertThat(alice.groups()).containsExactly("team-a-devs", "system:authenticated");
        assertThat(alice.defaultNamespace()).hasValue("team-a");
        var sent = ReviewingCluster.tokenReviews(CLUSTER.takeRequests());
        assertThat(sent).singleElement().satisfies(review -> {
            assertThat(review.getApiVersion()).isEqualTo("authentication.k8s.io/v1");
            assertThat(review.getSpec().getToken()).isEqualTo("alice-token");
            assertThat(review.getSpec().getAudiences()).containsExactly("paddle-jobs");
        });
    }

    @Test
    void aTokenTheClusterDoesNotConfirmWasIssuedForThisServiceIsRefused() {
        assertThat(tokens.authenticate("unbound-token")).isEmpty();
    }

    @Test
    void aUserWithoutAMappingHasNoDefaultNamespace() {
        assertThat(tokens.authenticate("bob-token").orElseThrow().defaultNamespace()).isEmpty();
    }

    @Test
    void aTokenTheClusterRejectsIsNobody() {
        assertThat(tokens.authenticate("forged-token")).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"SUBMIT, create", "READ, get", "LIST, list", "CANCEL, delete", "DELETE, delete"})
    void eachActionAsksTheClusterAboutBatchJobsWithItsVerbForTheUserAndGroups(Action action, String verb)
            throws InterruptedException {
        Tenant alice = tokens.authenticate("alice-token").orElseThrow();
        CLUSTER.takeRequests();

        assertThat(authorizer.mayUse(alice, "team-a", action)).isTrue();

        var sent = ReviewingCluster.accessReviews(CLUSTER.takeRequests());
        assertThat(sent).singleElement().satisfies(review -> {
            assertThat(review.getApiVersion()).isEqualTo("authorization.k8s.io/v1");
            var attributes = review.getSpec().getResourceAttributes();
            assertThat(attributes.getNamespace()).isEqualTo("team-a");
            assertThat(attributes.getVerb()).isEqualTo(verb);
            assertThat(attributes.getGroup()).isEqualTo("batch");
            assertThat(attributes.getResource()).isEqualTo("jobs");
            assertThat(review.getSpec().getUser()).isEqualTo("alice");
            assertThat(review.getSpec().getGroups()).containsExactly("team-a-devs", "system:authenticated");
        });
    }

    @Test
    void rbacDecidesPerNamespaceAndVerb() {
        Tenant alice = tokens.authenticate("alice-token").orElseThrow();
        Tenant viewer = tokens.authenticate("viewer-token").orElseThrow();

        assertThat(authorizer.mayUse(alice, "team-b", Action.READ)).isFalse();
        assertThat(authorizer.mayUse(viewer, "team-a", Action.READ)).isTrue();
        assertThat(authorizer.mayUse(viewer, "team-a", Action.SUBMIT)).isFalse();
    }

    @Test
    void answersAreKeptForTheTtlAndAskedAgainAfterIt() throws InterruptedException {
        Tenant alice = tokens.authenticate("alice-token").orElseThrow();
        assertThat(authorizer.mayUse(alice, "team-a", Action.SUBMIT)).isTrue();
        assertThat(authorizer.mayUse(alice, "team-b", Action.SUBMIT)).isFalse();
        assertThat(CLUSTER.takeRequests()).hasSize(3);

        clock.advance(TTL.minusSeconds(1));
        assertThat(tokens.authenticate("alice-token")).isPresent();
        assertThat(authorizer.mayUse(alice, "team-a", Action.SUBMIT)).isTrue();
        assertThat(authorizer.mayUse(alice, "team-b", Action.SUBMIT)).isFalse();
        assertThat(CLUSTER.takeRequests()).as("allow and deny both kept").isEmpty();

        clock.advance(Duration.ofSeconds(1));
        assertThat(tokens.authenticate("alice-token")).isPresent();
        assertThat(authorizer.mayUse(alice, "team-a", Action.SUBMIT)).isTrue();
        assertThat(CLUSTER.takeRequests()).extracting(r -> r.getPath())
                .containsExactly(ReviewingCluster.TOKEN_REVIEWS, ReviewingCluster.ACCESS_REVIEWS);
    }

    @Test
    void theSameQuestionInAnotherNamespaceOrVerbIsAskedAfresh() throws InterruptedException {
        Tenant alice = tokens.authenticate("alice-token").orElseThrow();
        authorizer.mayUse(alice, "team-a", Action.READ);
        CLUSTER.takeRequests();

        authorizer.mayUse(alice, "team-a", Action.LIST);
        authorizer.mayUse(alice, "shared", Action.READ);

        assertThat(ReviewingCluster.accessReviews(CLUSTER.takeRequests())).hasSize(2);
    }

    @Test
    void aFailedTokenReviewLetsNobodyInAndIsNotKept() throws InterruptedException {
        assertThat(tokens.authenticate("broken-token")).isEmpty();
        assertThat(tokens.authenticate("broken-token")).isEmpty();

        assertThat(ReviewingCluster.tokenReviews(CLUSTER.takeRequests())).hasSize(2);
    }

    @Test
    void aFailedAccessReviewDeniesAndIsNotKept() throws InterruptedException {
        Tenant carol = tokens.authenticate("carol-token").orElseThrow();
        CLUSTER.takeRequests();

        assertThat(authorizer.mayUse(carol, "team-a", Action.READ)).isFalse();
        assertThat(authorizer.mayUse(carol, "team-a", Action.READ)).isFalse();

        assertThat(ReviewingCluster.accessReviews(CLUSTER.takeRequests())).hasSize(2);
    }

    @Test
    void anUnreachableApiServerDeniesEverything() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        start(KubernetesClientFactory.create(connection("http://127.0.0.1:" + closedPort)));
        Tenant alice = new Tenant("alice", List.of("team-a-devs"), List.of("team-a"), SecurityProperties.Limits.NONE);

        assertThat(tokens.authenticate("alice-token")).isEmpty();
        assertThat(authorizer.mayUse(alice, "team-a", Action.READ)).isFalse();
    }
}

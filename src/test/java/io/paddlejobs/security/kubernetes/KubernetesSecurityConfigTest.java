package io.paddlejobs.security.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.paddlejobs.kubernetes.KubernetesConnection;
import io.paddlejobs.security.SecurityProperties;
import io.paddlejobs.security.TokenAuthenticator;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Which client mode {@code kubernetes} asks the cluster with. */
class KubernetesSecurityConfigTest {

    private static final ReviewingCluster CLUSTER = new ReviewingCluster();

    @AfterAll
    static void stop() {
        CLUSTER.close();
    }

    @EnableConfigurationProperties({SecurityProperties.class, KubernetesConnection.class})
    @Configuration(proxyBeanMethods = false)
    static class Properties {
    }

    /**
     * The Kubernetes backend's client, as {@code paddlejobs.backend=kubernetes} would define it; here
     * not closed by the context, so that the test sees whether mode kubernetes closed it (it must not:
     * it goes before the backend's beans on shutdown, which still use the client).
     */
    @Configuration(proxyBeanMethods = false)
    static class BackendClient {
        @Bean(destroyMethod = "")
        KubernetesClient kubernetesClient() {
            return CLUSTER.server.createClient();
        }
    }

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(Properties.class, KubernetesSecurityConfig.class)
            .withPropertyValues("paddlejobs.security.mode=kubernetes", "paddlejobs.kubernetes.request-timeout=15s");

    @Test
    void withoutTheBackendItsOwnClientGoesToTheConfiguredApiServer() {
        context.withPropertyValues("paddlejobs.kubernetes.master-url=" + CLUSTER.url()).run(app ->
                assertThat(app.getBean(TokenAuthenticator.class).authenticate("alice-token")).isPresent());
    }

    @Test
    void theBackendsClientIsUsedAndLeftOpenWhenTheContextCloses() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        KubernetesClient[] shared = new KubernetesClient[1];
        // The configured URL goes nowhere: only the backend's client can reach the reviews.
        context.withUserConfiguration(BackendClient.class)
                .withPropertyValues("paddlejobs.kubernetes.master-url=http://127.0.0.1:" + closedPort)
                .run(app -> {
                    shared[0] = app.getBean(KubernetesClient.class);
                    assertThat(app.getBean(TokenAuthenticator.class).authenticate("alice-token")).isPresent();
                });

        assertThat(shared[0].authentication().v1().tokenReviews().create(
                new io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder()
                        .withNewSpec().withToken("alice-token").endSpec().build()).getStatus().getAuthenticated())
                .isTrue();
        shared[0].close();
    }
}

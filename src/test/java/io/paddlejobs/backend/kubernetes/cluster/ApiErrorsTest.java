package io.paddlejobs.backend.kubernetes.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

class ApiErrorsTest {

    private static KubernetesClientException answered(int code, String message) {
        return new KubernetesClientException(new StatusBuilder().withCode(code).withMessage(message).build());
    }

    @Test
    void quotaRefusalIsAForbiddenProblemTheUserCanActOn() {
        var error = ApiErrors.translate(answered(403, "jobs.batch \"x-trainer\" is forbidden: exceeded quota: "
                + "compute, requested: requests.cpu=8, used: requests.cpu=4, limited: requests.cpu=10"),
                "create Job x-trainer");

        assertThat(error).isInstanceOf(ClusterQuotaException.class);
        assertThat(error.getStatusCode().value()).isEqualTo(403);
        assertThat(error.getBody().getDetail()).contains("exceeded quota", "requests.cpu=8");
    }

    @Test
    void invalidObjectIsABadRequestNamingTheRequestField() {
        var status = new StatusBuilder().withCode(422).withMessage("Service \"1abc\" is invalid")
                .withNewDetails().addNewCause().withField("metadata.name")
                .withMessage("a DNS-1035 label must start with an alphabetic character").endCause().endDetails().build();
        var error = ApiErrors.translate(new KubernetesClientException(status), "create Service 1abc");

        assertThat(error.getStatusCode().value()).isEqualTo(400);
        assertThat(error.getBody().getDetail()).contains("is invalid");
        @SuppressWarnings("unchecked")
        var errors = (java.util.List<java.util.Map<String, Object>>) error.getBody().getProperties().get("errors");
        assertThat(errors).singleElement().isEqualTo(java.util.Map.of("field", "name",
                "message", "a DNS-1035 label must start with an alphabetic character"));
    }

    @Test
    void otherRefusalsAreBadGatewayWithTheServersWords() {
        var error = ApiErrors.translate(answered(403, "jobs.batch is forbidden: User cannot create"), "create Job x");

        assertThat(error.getStatusCode().value()).isEqualTo(502);
        assertThat(error.getBody().getDetail()).contains("forbidden");
    }

    @Test
    void unreachableServerIsServiceUnavailable() {
        var error = ApiErrors.translate(new KubernetesClientException("connect timed out"), "create Job x");

        assertThat(error.getStatusCode().value()).isEqualTo(503);
    }
}

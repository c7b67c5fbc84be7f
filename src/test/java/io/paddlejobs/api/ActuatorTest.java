package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;

/** docs/api.md: probes for the orchestrator, metrics for Prometheus, and the Swagger UI for people. */
class ActuatorTest extends ApiTest {

    @ParameterizedTest
    @ValueSource(strings = {"/actuator/health/liveness", "/actuator/health/readiness"})
    void probesReportUp(String path) throws Exception {
        MockHttpServletResponse response = mvc.perform(get(path)).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(json.readTree(response.getContentAsString()).path("status").asString()).isEqualTo("UP");
    }

    @Test
    void prometheusServesJvmAndHttpMetrics() throws Exception {
        mvc.perform(get("/jobs")).andReturn();

        MockHttpServletResponse response = mvc.perform(get("/actuator/prometheus")).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(MediaType.parseMediaType(response.getContentType()).isCompatibleWith(MediaType.TEXT_PLAIN)).isTrue();
        assertThat(response.getContentAsString()).contains("jvm_memory_used_bytes").contains("http_server_requests");
    }

    @Test
    void swaggerUiIsServed() throws Exception {
        MockHttpServletResponse response = mvc.perform(get("/swagger-ui/index.html")).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentAsString()).contains("swagger-ui");
    }

    @Test
    void swaggerUiIsPointedAtTheServedContract() throws Exception {
        MockHttpServletResponse response = mvc.perform(get("/v3/api-docs/swagger-config")).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(json.readTree(response.getContentAsString()).path("url").asString()).isEqualTo("/v3/api-docs");
    }
}

package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

import io.paddlejobs.security.InNamespace;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/** docs/request.md, docs/api.md: a bad query parameter is a 400 problem naming the parameter, like a bad body field. */
class QueryParameterTest extends ApiTest {

    static Stream<Arguments> badParameters() {
        return Stream.of(
                arguments(get("/jobs").queryParam("namespace", "Not_A_Namespace"), "namespace"),
                arguments(get("/jobs").queryParam("limit", "0"), "limit"),
                arguments(get("/jobs").queryParam("limit", "ten"), "limit"),
                arguments(get("/jobs").queryParam("phase", "Sleeping"), "phase"),
                arguments(get("/jobs").queryParam("label_selector", "team"), "label_selector"),
                arguments(get("/jobs").queryParam("created_since", "yesterday"), "created_since"),
                arguments(get("/jobs").queryParam("created_before", "2026-12-01"), "created_before"),
                arguments(get("/jobs").queryParam("watch", "true").queryParam("created_since", "noon"), "created_since"),
                arguments(get("/jobs").queryParam("watch", "null"), "watch"),
                arguments(get("/jobs").queryParam("continue", "not a token!"), "continue"),
                arguments(get("/jobs").queryParam("watch", "true").queryParam("namespace", "Not_A_Namespace"), "namespace"),
                arguments(get("/jobs").queryParam("watch", "true").queryParam("timeout_seconds", "0"), "timeout_seconds"),
                arguments(get("/jobs").queryParam("watch", "true").queryParam("timeout_seconds", "86401"), "timeout_seconds"),
                arguments(get("/jobs").queryParam("watch", "true").queryParam("limit", "x"), "limit"),
                arguments(get("/jobs").queryParam("watch", "true").queryParam("limit", "501"), "limit"),
                arguments(get("/jobs/some-job/logs").queryParam("role", ""), "role"),
                arguments(get("/jobs/some-job/logs").queryParam("role", "chief"), "role"),
                arguments(get("/jobs/some-job/logs").queryParam("index", "-1"), "index"),
                arguments(get("/jobs/some-job/metrics").queryParam("since", "-1"), "since"),
                arguments(get("/jobs/some-job/metrics").queryParam("since", "yesterday"), "since"),
                arguments(get("/jobs/some-job/metrics").queryParam("namespace", "Bad_NS"), "namespace"),
                arguments(post("/jobs").queryParam("dry_run", "maybe")
                        .contentType(MediaType.APPLICATION_JSON).content(json("{'entry_point':'true'}")), "dry_run"),
                arguments(post("/jobs").queryParam("dry_run", "true").queryParam("namespace", "-ns")
                        .contentType(MediaType.APPLICATION_JSON).content(json("{'entry_point':'true'}")), "namespace"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("badParameters")
    void badQueryParameterReturnsProblemNamingTheParameter(RequestBuilder request, String parameter) throws Exception {
        JsonNode problem = assertProblem(mvc.perform(request).andReturn(), 400);

        assertThat(problem.path("errors").findValuesAsString("field")).as("%s", problem).contains(parameter);
    }

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mapping;

    /** The rows above are written by hand; every endpoint that acts in a namespace is asked here, from the mapping. */
    @TestFactory
    Stream<DynamicTest> everyEndpointThatActsInANamespaceRefusesOneThatIsNoDnsLabel() {
        List<DynamicTest> tests = new ArrayList<>();
        mapping.getHandlerMethods().forEach((info, handler) -> {
            if (Stream.of(handler.getMethodParameters()).noneMatch(p -> p.hasParameterAnnotation(InNamespace.class)
                    && !p.getParameterAnnotation(InNamespace.class).quietly())) {
                return;
            }
            String query = info.getParamsCondition().getExpressions().stream().map(Object::toString)
                    .map(expression -> expression + "&").collect(Collectors.joining()) + "namespace=Not_A_Namespace";
            info.getPatternValues().forEach(pattern -> info.getMethodsCondition().getMethods().forEach(method -> {
                String path = pattern.replace("{id}", "sha256:" + "0".repeat(64)).replaceAll("\\{[^}]+}", "x");
                tests.add(DynamicTest.dynamicTest(method + " " + path + "?" + query, () -> {
                    var request = request(HttpMethod.valueOf(method.name()), path + "?" + query);
                    if (pattern.equals("/jobs") && method.name().equals("POST")) {
                        request.contentType(MediaType.APPLICATION_JSON).content(json("{'entry_point':'true'}"));
                    } else if (pattern.equals("/packages") && method.name().equals("POST")) {
                        request.contentType("application/gzip").content(new byte[] {1, 2});
                    } else if (pattern.equals("/sweeps") && method.name().equals("POST")) {
                        request.contentType(MediaType.APPLICATION_JSON).content(json("{'name':'s','template':{'entry_point':'true'},"
                                + "'parameters':[{'name':'n','env':'N','values':[1]}]}"));
                    } else if (pattern.equals("/jobs/{name}/exec") && method.name().equals("POST")) {
                        request.contentType(MediaType.APPLICATION_JSON).content(json("{'command':['true']}"));
                    } else if (pattern.equals("/jobs/import") && method.name().equals("POST")) {
                        request.contentType("application/yaml").content("apiVersion: kubeflow.org/v1\nkind: PaddleJob\n");
                    }
                    JsonNode problem = assertProblem(mvc.perform(request).andReturn(), 400);
                    assertThat(problem.path("errors").findValuesAsString("field")).as("%s", problem).contains("namespace");
                }));
            }));
        });
        assertThat(tests).hasSizeGreaterThan(10);
        return tests.stream();
    }

    @Test
    void unknownJobReturnsNotFoundProblem() throws Exception {
        JsonNode problem = assertProblem(mvc.perform(get("/jobs/no-such-job")).andReturn(), 404);

        assertThat(problem.path("detail").asString()).contains("no-such-job");
    }
}

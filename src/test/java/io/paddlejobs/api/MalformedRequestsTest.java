package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.RawHttp;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * docs/request.md: no input is a 5xx. Each class of malformed input, on every endpoint the handler
 * mapping serves (so a new endpoint is swept without being listed here), is a 4xx problem document,
 * whether Tomcat, the firewall or a controller refuses it. Sent by hand over a socket: an HTTP
 * client would correct most of these before they left.
 */
class MalformedRequestsTest extends ApiTest {

    /** What is done to a well-formed request target ({@code /jobs/x?namespace=default} and the like). */
    enum Malformed {
        EMPTY_PARAMETER_NAME(path -> path + "?=false"),
        EMPTY_NAME_AFTER_A_GOOD_ONE(path -> path + "?namespace=default&="),
        BAD_PERCENT_ESCAPE(path -> path + "?continue=%%%"),
        TRUNCATED_PERCENT_ESCAPE(path -> path + "?namespace=%e"),
        INVALID_UTF8(path -> path + "?namespace=%C3%28"),
        REPEATED_PARAMETER(path -> path + "?namespace=default&namespace="),
        OVERSIZE_VALUE(path -> path + "?namespace=" + "a".repeat(4000)),
        NUL_IN_QUERY(path -> path + "?namespace=a%00b"),
        NUL_IN_PATH(path -> path + "%00"),
        BAD_PERCENT_ESCAPE_IN_PATH(path -> path + "%zz"),
        ENCODED_PERCENT_IN_PATH(path -> path + "%25"),
        ENCODED_SLASH_IN_PATH(path -> path + "%2F.."),
        SEMICOLON_IN_PATH(path -> path + ";jsessionid=x");

        final UnaryOperator<String> spoil;

        Malformed(UnaryOperator<String> spoil) {
            this.spoil = spoil;
        }
    }

    record Endpoint(String method, String path) {
    }

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mapping;

    @TestFactory
    Stream<DynamicTest> everyMalformedRequestToEveryEndpointIsAClientErrorProblem() {
        return endpoints().stream().flatMap(endpoint -> Stream.of(Malformed.values()).map(malformed -> {
            String target = malformed.spoil.apply(endpoint.path());
            return DynamicTest.dynamicTest(malformed + " " + endpoint.method() + " " + endpoint.path(),
                    () -> assertClientErrorProblem(send(endpoint.method(), target), endpoint.method() + " " + target));
        }));
    }

    @TestFactory
    Stream<DynamicTest> aMethodAPathDoesNotServeIs405WithAllow() {
        Set<String> paths = new TreeSet<>(endpoints().stream().map(Endpoint::path).toList());
        return paths.stream().flatMap(path -> Stream.of("QUERY", "PROPFIND", "BREW").map(method ->
                DynamicTest.dynamicTest(method + " " + path, () -> {
                    RawHttp.Response response = send(method, path);
                    assertClientErrorProblem(response, method + " " + path);
                    assertThat(response.status()).as("%s %s", method, path).isEqualTo(405);
                    assertThat(response.headers().get("allow")).as("%s %s", method, path).isNotBlank();
                })));
    }

    @Test
    void theSweepCoversTheJobAndPackageEndpoints() {
        assertThat(endpoints()).extracting(Endpoint::path)
                .contains("/jobs", "/jobs/x", "/jobs/x/status", "/jobs/x/logs", "/packages", "/packages/x/content");
    }

    /** Every method and path our controllers map, path variables filled with a plausible value. */
    private List<Endpoint> endpoints() {
        return mapping.getHandlerMethods().entrySet().stream()
                .filter(entry -> entry.getValue().getBeanType().getPackageName().startsWith("io.paddlejobs"))
                .filter(entry -> entry.getValue().getBeanType() != ErrorPageProblems.class)
                // GET / only redirects to the jobs page and reads no parameter: there is nothing malformed to refuse.
                .filter(entry -> entry.getValue().getBeanType() != HomeRedirect.class)
                .flatMap(entry -> {
                    var info = entry.getKey();
                    Set<String> methods = info.getMethodsCondition().getMethods().isEmpty() ? Set.of("GET")
                            : info.getMethodsCondition().getMethods().stream().map(Enum::name)
                                    .collect(java.util.stream.Collectors.toSet());
                    return info.getPatternValues().stream().flatMap(pattern -> methods.stream()
                            .map(method -> new Endpoint(method, pattern.replaceAll("\\{[^}]+}", "x"))));
                })
                .distinct()
                .sorted(Comparator.comparing(Endpoint::path).thenComparing(Endpoint::method))
                .toList();
    }

    private RawHttp.Response send(String method, String target) {
        return RawHttp.send(port, method, target, Map.of("Accept", "application/json"), null);
    }

    private static void assertClientErrorProblem(RawHttp.Response response, String request) {
        assertThat(response.status()).as("status of %s: %s", request, response.body()).isBetween(400, 499);
        assertThat(MediaType.parseMediaType(response.headers().get("content-type")))
                .as("content type of %s: %s", request, response.body())
                .matches(type -> type.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        assertThat(response.body()).as("body of %s", request).contains("\"status\":" + response.status())
                .doesNotContain("Exception", "java.", "<html");
    }
}

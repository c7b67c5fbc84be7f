package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * One URL, two audiences: browsers get the page, everything else keeps getting JSON. And the
 * pages are written so that a strict Content-Security-Policy and no network would not break them.
 */
class StatusPageNegotiationTests extends ApiTest {

    /** What Chromium sends when a person opens a URL. */
    static final String BROWSER_ACCEPT =
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

    ServiceClient jobs;

    @BeforeEach
    void submitJob() {
        jobs = new ServiceClient(port);
        jobs.submit("""
                {"name": "negotiated", "trainers": 1, "pservers": 1, "entry_point": "true"}""");
    }

    @ParameterizedTest(name = "Accept: {0}")
    @NullSource
    @ValueSource(strings = {"*/*", "application/json", "application/*"})
    void statusUrlServesJsonToScripts(String accept) {
        HttpResponse<String> response = jobs.get("/jobs/negotiated/status?namespace=default", accept);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.body()).startsWith("{\"phase\":");
        assertThat(response.headers().allValues("Vary")).contains("Accept");
    }

    @ParameterizedTest(name = "Accept: {0}")
    @ValueSource(strings = {BROWSER_ACCEPT, "text/html"})
    void statusUrlServesThePageToBrowsers(String accept) {
        HttpResponse<String> response = jobs.get("/jobs/negotiated/status?namespace=default", accept);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(response.body()).contains("<main>", "page/status.js");
        assertThat(response.headers().allValues("Vary")).contains("Accept");
    }

    @Test
    void statusPageOfAnUnknownJobIsNotFound() {
        HttpResponse<String> response = jobs.get("/jobs/no-such-job/status", BROWSER_ACCEPT);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("page/status.js");
    }

    @Test
    void statusPageWithAnInvalidNamespaceIsABadRequest() {
        HttpResponse<String> response = jobs.get("/jobs/negotiated/status?namespace=Not_A_Label", BROWSER_ACCEPT);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("namespace");
    }

    @Test
    void unknownJobStillGetsAProblemDocumentForScripts() {
        HttpResponse<String> response = jobs.get("/jobs/no-such-job/status", "*/*");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @ParameterizedTest(name = "Accept: {0} -> {1}")
    @MethodSource("listRepresentations")
    void jobListServesJsonToScriptsAndThePageToBrowsers(String accept, String contentType) {
        HttpResponse<String> response = jobs.get("/jobs", accept);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(contentType);
    }

    static Stream<Arguments> listRepresentations() {
        return Stream.of(
                Arguments.of(null, "application/json"),
                Arguments.of("*/*", "application/json"),
                Arguments.of("application/json", "application/json"),
                Arguments.of(BROWSER_ACCEPT, "text/html;charset=UTF-8"));
    }

    @Test
    void apiContractDescribesOnlyTheJson() {
        HttpResponse<String> docs = jobs.get("/v3/api-docs", "application/json");

        assertThat(docs.statusCode()).isEqualTo(200);
        assertThat(docs.body()).contains("/jobs/{name}/status").doesNotContain("text/html");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pages/status.html", "pages/jobs.html"})
    void pagesNeedNoInlineScriptStyleOrRemoteAsset(String page) {
        String html = read(page);

        assertThat(html).doesNotContainPattern("<script(?![^>]*\\ssrc=)");
        assertThat(html).doesNotContainPattern("(?i)<style|\\sstyle=|\\son[a-z]+=");
        assertThat(html).doesNotContainPattern("(?i)(src|href)=\"(https?:)?//");
    }

    /** Every script and style sheet the pages load, listed from the folder so that a new one is checked too. */
    static Stream<String> pageAssets() throws IOException {
        Resource[] assets = new PathMatchingResourcePatternResolver().getResources("classpath:static/page/*");
        List<String> names = Stream.of(assets).map(Resource::getFilename)
                .filter(name -> name.endsWith(".js") || name.endsWith(".css")).sorted().toList();
        assertThat(names).contains("common.js", "status.js", "page.css");
        return names.stream();
    }

    @ParameterizedTest
    @MethodSource("pageAssets")
    void scriptsWriteTextNeverMarkupAndFetchNothingRemote(String asset) {
        String source = read("static/page/" + asset);

        assertThat(source).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                "eval(", "new Function", "@import", "url(");
        // The SVG namespace (charts.js) is a name, not an address: nothing is fetched from it.
        assertThat(source.replace("'http://www.w3.org/2000/svg'", "")).doesNotContainPattern("https?://");
    }

    private static String read(String resource) {
        try {
            return new ClassPathResource(resource).getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

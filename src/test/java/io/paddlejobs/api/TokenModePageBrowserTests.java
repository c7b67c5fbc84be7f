package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import io.paddlejobs.testing.Tokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The pages where the service wants a token: a browser opens them without one, the page asks for
 * it once, and from then on reads the job with it.
 */
@Tag("browser")
@EnabledIf(value = "io.paddlejobs.api.Browser#installedOrRequired", disabledReason = "no Chromium installed")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class TokenModePageBrowserTests {

    static final String ALICE = "alice-page-token";

    @TempDir
    static Path tmp;

    @RegisterExtension
    static final Browser browser = new Browser();

    @LocalServerPort
    int port;

    ServiceClient alice;
    StatusPage page;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
        registry.add("paddlejobs.security.mode", () -> "token");
        registry.add("paddlejobs.allow-shared-files", () -> "true");
        registry.add("paddlejobs.security.token-file", () -> {
            Path file = tmp.resolve("tokens.properties");
            try {
                Files.writeString(file, """
                        tokens[0].user=alice
                        tokens[0].sha256=%s
                        tokens[0].namespaces=team-a
                        """.formatted(Tokens.sha256(ALICE)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return file.toString();
        });
    }

    @BeforeEach
    void setUp() {
        alice = new ServiceClient(port).withToken(ALICE);
        page = new StatusPage(browser.driver());
        browser.driver().manage().logs().get(LogType.BROWSER);
    }

    @AfterEach
    void browserReportedNoScriptErrorOrPolicyViolation() {
        List<String> problems = browser.driver().manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(message -> message.contains("Content Security Policy") || message.contains("Uncaught"))
                .toList();
        assertThat(problems).isEmpty();
        browser.driver().executeScript("sessionStorage.clear()");
    }

    @Test
    void statusPageAsksForTheTokenOnceAndThenShowsTheJob() {
        String statusUrl = alice.submit("""
                {"name": "token-page", "trainers": 1, "pservers": 1, "entry_point": "echo trained"}""", "team-a");

        page.open(statusUrl);
        page.await(d -> visible(By.id("token-form")));
        assertThat(page.phase()).isEqualTo("Token needed");
        enterToken("not-the-token");
        page.await(d -> browser.driver().findElement(By.id("token-why")).getText().contains("not accepted"));
        enterToken(ALICE);

        page.await(d -> page.phase().equals("Succeeded"));
        assertThat(browser.driver().findElement(By.id("token-form")).isDisplayed()).isFalse();
        page.await(d -> page.logTailOf("trainer-0").contains("trained"));
    }

    @Test
    void withATokenThePageIsPushedTheMetricsWithoutPollingAndOffersDelete() {
        String statusUrl = alice.submit("""
                {"name": "token-chart", "trainers": 1, "pservers": 1,
                 "entry_point": "sleep 4; echo PADDLEJOBS_METRICS '{\\"step\\": 1, \\"loss\\": 0.5}'"}""", "team-a");
        page.open(statusUrl);
        // The page reads the status stream with fetch, which sends the token: pushed, not polled.
        page.await(d -> visible(By.id("token-form")) || page.phase().equals("Succeeded"));
        if (visible(By.id("token-form"))) {
            enterToken(ALICE);
        }

        page.await(d -> !d.findElements(By.cssSelector("figure.chart[data-metric='loss'] .chart-legend li")).isEmpty());
        assertThat(browser.driver().findElement(By.cssSelector("figure.chart[data-metric='loss'] .chart-legend li"))
                .getDomProperty("textContent")).isEqualTo("trainer-0 0.5 at step 1");
        assertThat(browser.driver().findElements(By.cssSelector("button[aria-label='Delete job token-chart']"))).hasSize(1);
        page.await(d -> page.phase().equals("Succeeded"));
        // A page that polled would have read the status JSON about once a second while the job ran; the stream
        // is one request, listed once it ended.
        long statusReads = (Long) browser.driver().executeScript("""
                return performance.getEntriesByType('resource')
                    .filter(e => e.initiatorType === 'fetch' && new URL(e.name).pathname.endsWith('/status')).length""");
        assertThat(statusReads).isLessThanOrEqualTo(1);
    }

    @Test
    void fullLogLinkSendsTheToken() {
        String statusUrl = alice.submit("""
                {"name": "token-log", "trainers": 1, "pservers": 1, "entry_point": "echo the whole log"}""", "team-a");
        page.open(statusUrl);
        page.await(d -> visible(By.id("token-form")));
        enterToken(ALICE);
        page.await(d -> page.phase().equals("Succeeded"));

        page.openFullLogOf("trainer-0");

        page.await(d -> browser.driver().getCurrentUrl().startsWith("blob:") && browser.driver().getPageSource().contains("the whole log"));
    }

    @Test
    void jobListAsksForTheTokenAndThenListsTheJobs() {
        alice.submit("""
                {"name": "listed", "trainers": 1, "pservers": 1, "entry_point": "true"}""", "team-a");

        browser.driver().get(alice.baseUrl() + "/jobs");
        page.await(d -> visible(By.id("token-form")));
        enterToken(ALICE);

        page.await(d -> !browser.driver().findElements(By.xpath("//table[@id='jobs']//a[.='listed']")).isEmpty());
    }

    @Test
    void swaggerUiLoadsUnderItsPolicyAndOffersToAuthorize() {
        browser.driver().get(alice.baseUrl() + "/swagger-ui/index.html");

        page.await(d -> visible(By.cssSelector("button.authorize")));
        page.await(d -> visible(By.xpath("//*[contains(@class,'opblock-summary-path')][.//text()='/jobs']")));
    }

    private void enterToken(String token) {
        WebElement input = browser.driver().findElement(By.id("token"));
        input.clear();
        input.sendKeys(token);
        browser.driver().findElement(By.cssSelector("#token-form button[type=submit]")).click();
    }

    /** Whether the element is shown; false while the page is being replaced by a reload. */
    private boolean visible(By locator) {
        try {
            return browser.driver().findElement(locator).isDisplayed();
        } catch (StaleElementReferenceException e) {
            return false;
        }
    }
}

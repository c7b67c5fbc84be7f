package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.HungRanks;
import io.paddlejobs.testing.PySpyInstalled;
import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The status URL opened in a real browser, with real jobs running as local processes. The pages
 * are served under the service's own {@code Content-Security-Policy} ({@code default-src 'self'}),
 * and every test ends by checking that the browser reported no violation and no script error.
 */
@Tag("browser")
@EnabledIf(value = "io.paddlejobs.api.Browser#installedOrRequired", disabledReason = "no Chromium installed")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext // stop the jobs' processes before the temporary directory goes
class StatusPageBrowserTests {

    @TempDir
    static Path tmp;

    static final Set<String> FINISHED = Set.of("Succeeded", "Failed", "Cancelled");

    @RegisterExtension
    static final Browser browser = new Browser();

    @LocalServerPort
    int port;

    ServiceClient jobs;
    StatusPage page;

    @DynamicPropertySource
    static void dataRoot(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
        // One job at a time, so that a job can be seen waiting in the queue.
        registry.add("paddlejobs.local.max-running-jobs", () -> "1");
        // A restarted job starts again at once; stacks are taken with the py-spy the build names.
        registry.add("paddlejobs.restarts.backoff", () -> "100ms");
        registry.add("paddlejobs.stacks.py-spy", PySpyInstalled::setting);
    }

    @BeforeEach
    void setUp() {
        jobs = new ServiceClient(port);
        page = new StatusPage(browser.driver());
        browser.driver().manage().logs().get(LogType.BROWSER); // start each test with an empty console
    }

    @AfterEach
    void browserReportedNoScriptErrorOrPolicyViolation() {
        List<String> problems = browser.driver().manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(message -> message.contains("Content Security Policy") || message.contains("Uncaught"))
                .toList();
        assertThat(problems).isEmpty();
    }

    @Test
    void statusPageFollowsJobToSucceededWithoutReloading() throws IOException {
        Path release = tmp.resolve("release-follow");
        // The trainers wait for the test's signal, so the page is sure to see the job running.
        String statusUrl = jobs.submit("""
                {"name": "follow", "trainers": 2, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "echo step 1; while [ ! -e '%s' ]; do sleep 0.1; done; echo step 2"}
                """.formatted(release));

        page.open(statusUrl);
        browser.driver().executeScript("window.sameDocument = true");
        page.await(d -> Set.of("Pending", "Running").contains(page.phase()));
        page.await(d -> page.logTailOf("trainer-1").contains("step 1"));
        assertThat(page.progress()).isEqualTo("0 of 2 trainers finished");
        page.await(d -> page.elapsed().startsWith("Running for"));

        Files.createFile(release);

        page.await(d -> page.phase().equals("Succeeded"));
        assertThat(page.progress()).isEqualTo("2 of 2 trainers finished");
        assertThat(page.elapsed()).matches("Ran for \\d+ s");
        assertThat(page.startedAt()).isEqualTo(jobs.getJson("/jobs/follow?namespace=default").at("/status/started_at").asString());
        assertThat(page.stateOf("pserver-0")).isEqualTo("Stopped");
        page.await(d -> page.logTailOf("trainer-0").contains("step 2"));
        assertThat(browser.driver().executeScript("return window.sameDocument")).as("no reload").isEqualTo(true);
    }

    @Test
    void statusPageStopsPollingOnceTheJobIsFinished() {
        String statusUrl = jobs.submit("""
                {"name": "quiet", "trainers": 1, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "echo done"}
                """);

        page.open(statusUrl);
        page.await(d -> page.phase().equals("Succeeded"));
        long polls = statusPolls();

        await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).until(() -> statusPolls() == polls);
    }

    @Test
    void queuedJobShowsWhyItIsPendingThenItsAllocatedPortsOnceItRuns() throws IOException {
        Path release = tmp.resolve("release-queue");
        jobs.submit("""
                {"name": "holds-the-slot", "trainers": 1, "pservers": 1,
                 "entry_point": "while [ ! -e '%s' ]; do sleep 0.1; done"}
                """.formatted(release));
        String statusUrl = jobs.submit("""
                {"name": "waits", "trainers": 1, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "echo ran"}
                """);

        page.open(statusUrl);
        page.await(d -> page.why().contains("Queued"));
        assertThat(page.phase()).isEqualTo("Pending");
        assertThat(page.why()).contains("Why it is pending", "position 1 in the queue");

        Files.createFile(release);

        page.await(d -> page.phase().equals("Succeeded"));
        int allocatedPort = jobs.getJson("/jobs/waits?namespace=default").at("/plan/ports/first").asInt();
        page.await(d -> page.planFact("Pserver ports").startsWith(allocatedPort + "–"));
    }

    @Test
    void planShowsWhatEachRoleGetsAndTheWholeJobsTotals() {
        String statusUrl = jobs.submit("""
                {"name": "sized", "trainers": 3, "pservers": 2, "trainer_cpu": 2, "trainer_mem": "2Gi",
                 "entry_point": "true"}
                """);

        page.open(statusUrl);
        page.await(d -> !page.resources("Whole job").isEmpty());

        // replicas, CPU, GPUs, memory
        assertThat(page.resources("Pservers, each")).containsExactly("2", "1", "0", "1Gi");
        assertThat(page.resources("Trainers, each")).containsExactly("3", "2", "0", "2Gi");
        assertThat(page.resources("Whole job")).containsExactly("5", "8", "0", "8Gi");
        page.await(d -> FINISHED.contains(page.phase())); // leave the one running slot free for the next test
    }

    @Test
    void collectiveJobShowsItsModeAndTrainersOnly() {
        String statusUrl = jobs.submit("""
                {"name": "all-reduce", "mode": "collective", "trainers": 2, "entry_point": "true"}
                """);

        page.open(statusUrl);
        page.await(d -> !page.resources("Whole job").isEmpty());

        assertThat(page.planFact("Mode")).startsWith("collective");
        assertThat(page.planFact("Trainer port")).contains("store");
        assertThat(page.resources("Pservers, each")).isEmpty();
        assertThat(page.resources("Trainers, each")).startsWith("2");
        assertThat(page.resources("Whole job")).startsWith("2");
        page.await(d -> FINISHED.contains(page.phase()));
        // No "none (of 0)" for the pservers a collective job does not have; the trainers' counts add up.
        assertThat(browser.driver().findElement(By.id("pserver-counts")).isDisplayed()).isFalse();
        assertThat(browser.driver().findElement(By.id("trainer-counts")).getText()).endsWith("(of 2)")
                .doesNotContain("none");
        // The badge's mark and word stay on one line.
        assertThat(browser.driver().findElement(By.id("phase")).getCssValue("white-space")).isEqualTo("nowrap");
    }

    @Test
    void failedJobShowsTheReasonAndTheExitCode() {
        String statusUrl = jobs.submit("""
                {"name": "fails", "trainers": 1, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "echo about to fail; exit 3"}
                """);

        page.open(statusUrl);
        page.await(d -> page.phase().equals("Failed"));

        assertThat(page.why()).contains("Why it failed", "TrainerFailed", "trainer-0 exited with code 3");
        assertThat(page.exitCodeOf("trainer-0")).isEqualTo("3");
        assertThat(page.stateOf("trainer-0")).isEqualTo("Failed");
        page.await(d -> page.logTailOf("trainer-0").contains("about to fail"));
    }

    @Test
    void aRestartedJobNumbersItsAttemptsFromZeroCountsReplicaRestartsAndShowsThePickedAttemptsLog() throws IOException {
        // Attempt 0 reports a loss from 70 to 5 in steps 1 to 3 and fails once the page charted them (the test says
        // go); attempt 1 goes on from step 4 down to 0.3.
        String statusUrl = jobs.submit("""
                {"name": "restarted", "trainers": 1, "pservers": 1, "pserver_entry_point": "sleep 60", "max_restarts": 1,
                 "entry_point": "echo this is attempt $PADDLE_JOB_RESTART_COUNT; f='PADDLEJOBS_METRICS {\\"step\\": %s, \\"loss\\": %s}\\\\n'; if [ $PADDLE_JOB_RESTART_COUNT = 1 ]; then printf \\"$f\\" 4 1 5 0.5 6 0.3; else printf \\"$f\\" 1 70 2 20 3 5; while [ ! -e go ]; do sleep 0.1; done; exit 3; fi"}
                """);

        page.open(statusUrl);
        page.await(d -> page.chartSummaryOf("loss").contains("trainer-0 5 at step 3"));
        go("restarted");
        page.await(d -> page.phase().equals("Succeeded"));

        assertThat(browser.driver().findElement(By.id("attempts")).getText())
                .contains("Attempt 0: TrainerFailed", "Attempt 1: Completed").doesNotContain("Attempt 2");
        assertThat(page.restartsOf("trainer-0")).isEqualTo("1");
        page.await(d -> page.logTailOf("trainer-0").contains("this is attempt 1"));

        page.showLogsOfAttempt("0");

        page.await(d -> page.logTailOf("trainer-0").contains("this is attempt 0"));
        assertThat(page.fullLogHrefOf("trainer-0")).contains("attempt=0");
        // The loss chart marks where attempt 1 began: once the service has read attempt 1's points (it may after the
        // job ended, when the page no longer listens), the page shows them.
        await().atMost(StatusPage.DEADLINE).until(() -> jobs.getJson("/jobs/restarted/metrics?namespace=default")
                .at("/metrics/loss/trainer-0").size() == 6);
        page.open(statusUrl);
        page.await(d -> page.attemptMarksOf("loss").equals(List.of("attempt 1 at step 4")));
        assertThat(page.valueTicksOf("loss")).startsWith("0").endsWith("80");
        page.showOnLogScale("loss");
        assertThat(page.valueTicksOf("loss")).containsExactly("0.1", "1", "10", "100");
    }

    @Test
    void takenStacksShowEachRankSideBySideWithTheFramesWhereTheyDifferMarked() throws IOException {
        PySpyInstalled.orSkip();
        Path program = tmp.resolve("hung.py");
        Files.writeString(program, HungRanks.PROGRAM);
        String statusUrl = jobs.submit("""
                {"name": "hung-ranks", "mode": "collective", "trainers": 2, "entry_point": "python3 %s"}
                """.formatted(program));
        try {
            page.open(statusUrl);
            // Both in the function they block in (a quiet job's page fetches no new log lines: asked of the API).
            await().atMost(StatusPage.DEADLINE).until(() -> jobs.get("/jobs/hung-ranks/logs?role=trainer&index=0").body()
                    .contains("waiting") && jobs.get("/jobs/hung-ranks/logs?role=trainer&index=1").body().contains("accepting"));

            page.takeStacks();

            page.await(d -> page.stackRanks().size() == 2);
            assertThat(page.markedFramesOf("trainer-0")).contains("wait_for_peer").doesNotContain("accept_from_peer");
            assertThat(page.markedFramesOf("trainer-1")).contains("accept_from_peer").doesNotContain("wait_for_peer");
            assertThat(page.stackRanks().get(0)).matches("trainer-0 \\(pid \\d+.*\\)");
        } finally {
            jobs.post("/jobs/hung-ranks/cancel", "");
        }
    }

    @Test
    void logLinkOpensTheReplicasWholeLog() {
        String statusUrl = jobs.submit("""
                {"name": "log-link", "trainers": 1, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "echo first line; echo hello from trainer zero"}
                """);
        page.open(statusUrl);
        page.await(d -> page.phase().equals("Succeeded"));

        page.openFullLogOf("trainer-0");

        page.await(d -> d.getCurrentUrl().contains("/jobs/log-link/logs?"));
        assertThat(browser.driver().findElement(By.tagName("body")).getText())
                .isEqualTo("first line\nhello from trainer zero");
    }

    @Test
    void pageOfAJobInAnotherNamespaceReadsAndLinksWithinIt() {
        String statusUrl = jobs.submit("""
                {"name": "elsewhere", "trainers": 1, "pservers": 1, "entry_point": "echo in team-a"}
                """, "team-a");
        assertThat(statusUrl).endsWith("/jobs/elsewhere/status?namespace=team-a");

        page.open(statusUrl);
        page.await(d -> page.phase().equals("Succeeded"));
        assertThat(browser.driver().findElement(By.id("namespace")).getText()).isEqualTo("team-a");
        assertThat(browser.driver().findElement(By.linkText("All jobs")).getDomAttribute("href")).endsWith("/jobs?namespace=team-a");

        page.openFullLogOf("trainer-0");
        page.await(d -> d.getCurrentUrl().contains("namespace=team-a"));
        assertThat(browser.driver().findElement(By.tagName("body")).getText()).isEqualTo("in team-a");
    }

    @Test
    void userTextIsShownAsTextNeverAsMarkup() {
        String markup = "<img src=x onerror=window.injected=1>";
        String statusUrl = jobs.submit("""
                {"name": "markup", "trainers": 1, "pservers": 1, "entry_point": "echo '%s'"}
                """.formatted(markup));

        page.open(statusUrl);
        page.await(d -> page.phase().equals("Succeeded"));
        page.await(d -> page.logTailOf("trainer-0").equals(markup));

        assertThat(page.planFact("Trainer entry point")).isEqualTo("echo '" + markup + "'");
        assertThat(browser.driver().findElements(By.tagName("img"))).isEmpty();
        assertThat(browser.driver().executeScript("return window.injected === undefined")).isEqualTo(true);
    }

    @Test
    void jobListPageShowsJobsNewestFirstAndLinksToTheirStatus() {
        jobs.submit("""
                {"name": "listed-older", "trainers": 1, "pservers": 1, "entry_point": "true"}""");
        jobs.submit("""
                {"name": "listed-newer", "trainers": 1, "pservers": 1, "entry_point": "true"}""");

        browser.driver().get(jobs.baseUrl() + "/jobs");
        page.await(d -> jobNamesListed().containsAll(List.of("listed-older", "listed-newer")));
        List<String> names = jobNamesListed();
        assertThat(names.indexOf("listed-newer")).isLessThan(names.indexOf("listed-older"));

        browser.driver().findElement(By.linkText("listed-newer")).click();
        page.await(d -> page.phase().equals("Succeeded"));
        assertThat(browser.driver().findElement(By.tagName("h1")).getText()).isEqualTo("Job listed-newer");
    }

    @Test
    void jobListPageShowsANewJobAndEachChangeOfItFromTheWatchWithoutPolling() throws IOException {
        Path release = tmp.resolve("release-live-list");
        browser.driver().get(jobs.baseUrl() + "/jobs?namespace=live-list");
        page.await(d -> browser.driver().findElement(By.id("empty")).isDisplayed());
        browser.driver().executeScript("window.sameDocument = true");

        jobs.submit("""
                {"name": "appears", "trainers": 1, "pservers": 1, "pserver_entry_point": "sleep 60",
                 "entry_point": "while [ ! -e '%s' ]; do sleep 0.1; done"}""".formatted(release), "live-list");

        page.await(d -> jobNamesListed().contains("appears"));
        page.await(d -> phaseListed("appears").equals("Running"));
        long lists = listFetches();
        // A page that polled would have asked for the list again within these seconds.
        await().during(Duration.ofMillis(3000)).atMost(Duration.ofSeconds(6)).until(() -> listFetches() == lists);

        Files.createFile(release);

        page.await(d -> phaseListed("appears").equals("Succeeded"));
        assertThat(listFetches()).as("the row changed in place, from the event").isEqualTo(lists);
        // The machine's memory in human units, not a quantity in Ki.
        assertThat(browser.driver().findElement(By.id("capacity-summary")).getText()).containsPattern("[0-9.]+ [KMGTP]iB memory")
                .doesNotContainPattern("[0-9]+Ki\\b");
        assertThat(browser.driver().executeScript("return window.sameDocument")).as("no reload").isEqualTo(true);
    }

    private String phaseListed(String job) {
        return browser.driver().findElements(By.cssSelector("#jobs tbody tr[data-job='" + job + "'] td")).stream()
                .findFirst().map(WebElement::getText).orElse("");
    }

    /** How many times the page has fetched the list JSON (the browser's own resource timing). */
    private long listFetches() {
        return (Long) browser.driver().executeScript("""
                return performance.getEntriesByType('resource')
                    .filter(e => e.initiatorType === 'fetch' && new URL(e.name).pathname.endsWith('/jobs')).length""");
    }

    private List<String> jobNamesListed() {
        return browser.driver().findElements(By.cssSelector("#jobs tbody th")).stream().map(WebElement::getText).toList();
    }

    /** How many times the page has fetched the status JSON (the browser's own resource timing). */
    private long statusPolls() {
        return (Long) browser.driver().executeScript("""
                return performance.getEntriesByType('resource')
                    .filter(e => e.initiatorType === 'fetch' && new URL(e.name).pathname.endsWith('/status')).length""");
    }

    /** The job's trainer 0 waits for a file {@code go} in its working directory. */
    private static void go(String job) throws IOException {
        Path work = tmp.resolve("data/jobs/default").resolve(job).resolve("work/trainer-0");
        await().atMost(StatusPage.DEADLINE).until(() -> Files.isDirectory(work));
        Files.createFile(work.resolve("go"));
    }
}

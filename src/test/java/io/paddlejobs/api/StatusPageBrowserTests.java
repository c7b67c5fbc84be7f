package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paddlejobs.testing.HungRanks;
import io.paddlejobs.testing.PySpyInstalled;
import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
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
    /** A sweep's trials run one after another here (one job at a time). */
    private static final Duration SWEEP_DEADLINE = Duration.ofSeconds(90);

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

    /**
     * A finished sweep's compare page, as a person reads it: one chart per metric, each run one line of as
     * many points as it reported steps (by step, then by time); a row per run with its parameters, last and
     * best values, the best run marked; the request fields in which the runs differ marked; and the CSV the
     * page's button saves holds the rows the table shows. Its picture goes to target/compare-page.png.
     */
    @Test
    void comparePageOfASweepOverlaysEveryRunPerMetricTablesItsRunsMarksTheirDifferencesAndSavesTheSameRows()
            throws IOException {
        Path trainer = tmp.resolve("two_metrics.py");
        Files.writeString(trainer, """
                import json, os
                quality, steps = float(os.environ["QUALITY"]), int(os.environ["STEPS"])
                for step in range(steps):
                    point = {"step": step, "loss": quality + 1 / (step + 1), "accuracy": 1 - quality / (step + 1)}
                    print("PADDLEJOBS_METRICS " + json.dumps(point), flush=True)
                """);
        // A grid: trial 1 is (0.3, 3 steps), 2 (0.3, 5), 3 (0.1, 3), 4 (0.1, 5), the best (loss 0.1 + 1/5).
        HttpResponse<String> created = jobs.post("/sweeps", """
                {"name": "quality", "parallel": 4, "objective": {"metric": "loss"},
                 "template": {"mode": "collective", "entry_point": "python3 -u %s", "num_cpus": 1},
                 "parameters": [{"name": "quality", "env": "QUALITY", "values": [0.3, 0.1]},
                                {"name": "steps", "env": "STEPS", "values": [3, 5]}]}""".formatted(trainer));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        await().atMost(SWEEP_DEADLINE).until(() -> jobs.getJson("/sweeps/quality"), sweep -> sweep.has("finished_at"));
        Map<String, Integer> steps = Map.of("quality-t1", 3, "quality-t2", 5, "quality-t3", 3, "quality-t4", 5);

        browser.driver().get(jobs.baseUrl() + "/compare?sweep=quality");

        page.await(d -> compareRows().size() == 4 && chartedMetrics().equals(List.of("accuracy", "loss")));
        // Each chart drawn at the width it is shown at: the first, drawn before the second stood beside it, was
        // scaled down to half and its labels read at half size.
        try {
            page.await(d -> drawnWidthsAgainstShown().values().stream().allMatch(w -> w.get(0).equals(w.get(1))));
        } catch (TimeoutException e) {
            throw new AssertionError("charts' widths, drawn and shown: " + drawnWidthsAgainstShown(), e);
        }
        for (String metric : List.of("accuracy", "loss")) {
            assertThat(pointsPerLine(metric)).as(metric).isEqualTo(steps);
            assertThat(xAxisLabel(metric)).isEqualTo("step");
        }
        assertThat(browser.driver().findElements(By.cssSelector("#runs thead th")).stream().map(WebElement::getText))
                .containsExactly("Run", "Phase", "quality", "steps", "accuracy last", "accuracy min … max", "loss last",
                        "loss best");
        Map<String, List<String>> rows = compareRows();
        assertThat(rows).containsOnlyKeys(steps.keySet());
        assertThat(rows.get("quality-t2")).containsExactly("Succeeded", "0.3", "5", "0.94 (step 4)", "0.7 … 0.94",
                "0.5 (step 4)", "0.5");
        assertThat(rows.get("quality-t3")).containsExactly("Succeeded", "0.1", "3", "0.96667 (step 2)", "0.9 … 0.96667",
                "0.43333 (step 2)", "0.43333");
        assertThat(browser.driver().findElements(By.cssSelector("#runs tbody tr:has(.state-best)")))
                .singleElement().satisfies(row -> assertThat(row.getDomAttribute("data-run")).isEqualTo("quality-t4"));
        List<WebElement> differing = browser.driver().findElements(By.cssSelector("#requests tbody tr.differs"));
        assertThat(differing).extracting(row -> row.getDomAttribute("data-field"))
                .containsExactlyInAnyOrder("name", "env.QUALITY", "env.STEPS");
        assertThat(differing).allSatisfy(row -> assertThat(row.getText()).contains("DIFFERS"));
        WebElement same = browser.driver().findElement(By.cssSelector("#requests tbody tr[data-field='entry_point']"));
        assertThat(same.getDomProperty("className")).doesNotContain("differs");
        assertThat(differing.get(0).getCssValue("background-color")).isNotEqualTo(same.getCssValue("background-color"));

        browser.screenshot(1280, Path.of(System.getProperty("project.basedir", "."), "target/compare-page.png"));
        browser.driver().findElement(By.cssSelector("input[name='axis'][value='time']")).click();
        page.await(d -> xAxisLabel("loss").equals("seconds since the run started"));
        assertThat(pointsPerLine("loss")).isEqualTo(steps);
        assertThat(pointsPerLine("accuracy")).isEqualTo(steps);

        Path downloads = Files.createDirectories(tmp.resolve("downloads"));
        browser.driver().executeCdpCommand("Browser.setDownloadBehavior",
                Map.of("behavior", "allow", "downloadPath", downloads.toString()));
        browser.driver().findElement(By.id("csv")).click();
        Path saved = downloads.resolve("quality-compared.csv");
        await().atMost(StatusPage.DEADLINE).until(() -> Files.exists(saved) && !Files.readString(saved).isEmpty());

        List<String> lines = Files.readString(saved).lines().toList();
        assertThat(Files.readString(saved)).isEqualTo(jobs.get("/compare?sweep=quality", "text/csv").body());
        assertThat(lines.get(0)).isEqualTo("run,phase,reason,quality,steps,accuracy last,accuracy last step,accuracy min,"
                + "accuracy max,loss last,loss last step,loss min,loss max,loss best");
        assertThat(lines.stream().skip(1).map(line -> line.split(",")[0])).containsExactlyElementsOf(rows.keySet());
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",");
            List<String> shown = rows.get(cells[0]);
            assertThat(shown.get(0)).isEqualTo(cells[1]);
            assertThat(Double.parseDouble(shown.get(1))).isEqualTo(Double.parseDouble(cells[3]));
            assertThat(Integer.parseInt(shown.get(2))).isEqualTo(Integer.parseInt(cells[4]));
            assertThat(shown.get(5)).isEqualTo(rounded(cells[9]) + " (step " + cells[10] + ")");
            assertThat(shown.get(6)).isEqualTo(rounded(cells[13]));
        }
    }

    /** The compare page's runs table: each run's cells after its name, by run, in the table's order. */
    private Map<String, List<String>> compareRows() {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (WebElement row : browser.driver().findElements(By.cssSelector("#runs tbody tr"))) {
            rows.put(row.getDomAttribute("data-run"), row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList());
        }
        return rows;
    }

    /** The metrics the compare page charts, in its order. */
    private List<String> chartedMetrics() {
        return browser.driver().findElements(By.cssSelector("#charts figure.chart")).stream()
                .map(figure -> figure.getDomAttribute("data-metric")).toList();
    }

    // A chart is drawn anew when its figure's width changes: read what it holds in the page, at once, not an
    // element found a moment before (it may have been replaced).

    /** Each line of a metric's chart: its run, and how many points it joins. */
    private Map<String, Integer> pointsPerLine(String metric) {
        Object lines = browser.driver().executeScript("return Object.fromEntries(Array.from("
                + "document.querySelectorAll(arguments[0]), line => [line.getAttribute('data-replica'),"
                + " line.getAttribute('d').replace(/[^ML]/g, '').length]));",
                "figure.chart[data-metric='" + metric + "'] svg.chart-plot path.chart-line");
        Map<String, Integer> points = new LinkedHashMap<>();
        ((Map<?, ?>) lines).forEach((run, count) -> points.put(run.toString(), ((Number) count).intValue()));
        return points;
    }

    private String xAxisLabel(String metric) {
        return (String) browser.driver().executeScript("return document.querySelector(arguments[0]).textContent;",
                "figure.chart[data-metric='" + metric + "'] text.chart-label");
    }

    /** Each chart's width as drawn (its SVG's own) and as shown on the page, in whole pixels. */
    private Map<String, List<Long>> drawnWidthsAgainstShown() {
        Object widths = browser.driver().executeScript("return Object.fromEntries(Array.from("
                + "document.querySelectorAll('#charts figure.chart'), figure => { const plot = figure.querySelector("
                + "'svg.chart-plot'); return [figure.dataset.metric, [Number(plot.getAttribute('width') || 0),"
                + " Math.round(plot.getBoundingClientRect().width)]]; }));");
        Map<String, List<Long>> byMetric = new LinkedHashMap<>();
        ((Map<?, ?>) widths).forEach((metric, pair) -> byMetric.put(metric.toString(),
                ((List<?>) pair).stream().map(n -> ((Number) n).longValue()).toList()));
        return byMetric;
    }

    /** A value as the page writes it: at most 5 significant digits. */
    private static String rounded(String value) {
        return new java.math.BigDecimal(value).round(new java.math.MathContext(5)).stripTrailingZeros().toPlainString();
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

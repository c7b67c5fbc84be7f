package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.ServiceClient;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Writes docs/status-page.png, the picture of the status page in the README and docs/api.md, on request only
 * ({@code -Dscreenshot.update=true}), so that ordinary runs leave the tree alone. The phone-width
 * shot and the job list go to target/, to be looked at before committing.
 */
@Tag("browser")
@EnabledIfSystemProperty(named = "screenshot.update", matches = "true")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class StatusPageScreenshotTests {

    @TempDir
    static Path tmp;

    @RegisterExtension
    static final Browser browser = new Browser();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void dataRoot(DynamicPropertyRegistry registry) {
        registry.add("paddlejobs.local.data-root", () -> tmp.resolve("data").toString());
    }

    @Test
    void savesScreenshotsOfAFinishedExampleJob() throws IOException {
        ServiceClient jobs = new ServiceClient(port);
        StatusPage page = new StatusPage(browser.driver());
        String statusUrl = jobs.submit("""
                {"name": "mnist-dist", "trainers": 3, "pservers": 2, "trainer_cpu": 2, "trainer_mem": "2Gi",
                 "labels": {"team": "vision", "dataset": "mnist"},
                 "pserver_entry_point": "echo pserver $POD_IP:$PADDLE_PORT ready; sleep 60",
                 "entry_point": "echo trainer $PADDLE_TRAINER_ID of $PADDLE_TRAINERS_NUM, pservers $PADDLE_PSERVERS_IP_PORT_LIST; for pass in 0 1 2 3 4 5 6 7 8 9; do sleep 0.3; cost=0.$(printf %03d $((900 / (pass + 1) + 30 * PADDLE_TRAINER_ID))); err=0.$(printf %03d $((500 / (pass + 2) + 15 * PADDLE_TRAINER_ID))); echo Pass $pass, Batch 200, Cost $cost, classification_error $err; echo PADDLEJOBS_METRICS '{\\"step\\": '$pass', \\"cost\\": '$cost', \\"classification_error\\": '$err'}'; done"}
                """);
        page.open(statusUrl);
        page.await(d -> page.phase().equals("Succeeded"));
        page.await(d -> page.logTailOf("trainer-2").contains("Pass 9"));
        page.await(d -> d.findElements(By.cssSelector("figure.chart .chart-last")).stream()
                .filter(last -> last.getText().endsWith("at step 9")).count() == 6);
        page.await(d -> page.logTailOf("pserver-1").contains("ready"));

        Path basedir = Path.of(System.getProperty("project.basedir", "."));
        Path desktop = browser.screenshot(1280, basedir.resolve("docs/status-page.png"));
        Path phone = browser.screenshot(390, basedir.resolve("target/status-page-phone.png"));
        browser.driver().get(jobs.baseUrl() + "/jobs");
        page.await(d -> !d.findElements(By.linkText("mnist-dist")).isEmpty());
        browser.screenshot(1280, basedir.resolve("target/jobs-page.png"));
        browser.screenshot(390, basedir.resolve("target/jobs-page-phone.png"));

        assertThat(desktop).isNotEmptyFile();
        assertThat(phone).isNotEmptyFile();
    }
}

package io.paddlejobs.api;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * A headless Chromium for the page tests. Where none is installed the tests are skipped, unless
 * {@code -Dbrowser.required=true} says that a missing browser is a failure (as on CI). Paths
 * other than Debian's are given with {@code -Dchromium.binary=} and {@code -Dchromedriver.path=}.
 *
 * <p>Both the browser and its driver are given by path, so Selenium Manager never runs (it would
 * try to download a driver; the build has no internet).
 */
final class Browser implements BeforeAllCallback, AfterAllCallback {

    private static final Path CHROMIUM = Path.of(System.getProperty("chromium.binary", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("chromedriver.path", "/usr/bin/chromedriver"));

    /**
     * For {@code @EnabledIf}: the page tests run where a browser is installed, and also where
     * one is required but missing, so that {@link #start} can fail them.
     */
    static boolean installedOrRequired() {
        return installed() || required();
    }

    private ChromeDriver driver;
    private Path userDataDir;

    /** The running browser, between this extension's before-all and after-all. */
    ChromeDriver driver() {
        return driver;
    }

    /** The whole page at the given viewport width, as a phone or desktop browser lays it out, written to {@code file}. */
    Path screenshot(int width, Path file) throws IOException {
        boolean phone = width < 600;
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", 900, "deviceScaleFactor", 1, "mobile", phone));
        long height = (Long) driver.executeScript("return document.documentElement.scrollHeight");
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", phone));
        Files.createDirectories(file.getParent());
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        return file;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        userDataDir = Files.createTempDirectory("chromium-profile");
        driver = start(userDataDir);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (driver != null) {
            driver.quit();
        }
        if (userDataDir != null) {
            try (var paths = Files.walk(userDataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static ChromeDriver start(Path userDataDir) {
        if (!installed()) {
            fail("No browser for the page tests: needs %s and %s (apt-get install chromium chromium-driver);"
                    .formatted(CHROMIUM, CHROMEDRIVER) + " -Dbrowser.required=true makes that a failure");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + userDataDir, "--window-size=1280,900", "--lang=en-US");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL); // the console, for script errors and CSP violations
        options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    private static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    private static boolean required() {
        return Boolean.getBoolean("browser.required");
    }
}

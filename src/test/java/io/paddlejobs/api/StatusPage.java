package io.paddlejobs.api;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The status page as a person reads it: what the tests look at, by what it means rather than by markup. */
final class StatusPage {

    /**
     * Long enough for a page on a machine busy with a cold CI run's builds (Swagger UI waited on the service's first
     * rendering of its contract for over 30 s there); a condition met returns at once.
     */
    static final Duration DEADLINE = Duration.ofSeconds(90);

    private final WebDriver browser;

    StatusPage(WebDriver browser) {
        this.browser = browser;
    }

    StatusPage open(String statusUrl) {
        browser.get(statusUrl);
        return this;
    }

    /** Text as in the DOM, without the decoration CSS adds around it. */
    String phase() {
        return text("#phase");
    }

    String why() {
        return browser.findElement(By.id("why")).getText();
    }

    String progress() {
        return text("#progress-text");
    }

    /** "Running for", "Ran for", "Waiting for" ... and the duration after it. */
    String elapsed() {
        return text("#elapsed-label") + " " + text("#elapsed");
    }

    /** The exact instant behind the readable start time. */
    String startedAt() {
        return browser.findElement(By.id("started-at")).getDomAttribute("datetime");
    }

    /** The cells of one row of the resources table, after its header ({@code Trainers, each}, {@code Whole job}). */
    List<String> resources(String rowHeader) {
        Object cells = ((JavascriptExecutor) browser).executeScript("const found = document.evaluate(arguments[0],"
                + " document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null); const texts = [];"
                + " for (let i = 0; i < found.snapshotLength; i++) texts.push(found.snapshotItem(i).textContent);"
                + " return texts;", "//table[@id='resources']//tr[th='" + rowHeader + "']/td");
        return ((List<?>) cells).stream().map(cell -> cell.toString().strip()).toList();
    }

    String exitCodeOf(String replicaId) {
        return textAt("//table[@id='replicas']//tr[th='" + replicaId + "']/td[@data-label='Exit code']");
    }

    String stateOf(String replicaId) {
        return textAt("//table[@id='replicas']//tr[th='" + replicaId + "']/td[@data-label='State']");
    }

    String restartsOf(String replicaId) {
        return textAt("//table[@id='replicas']//tr[th='" + replicaId + "']/td[@data-label='Restarts']");
    }

    /** Picks the attempt whose logs the Logs section shows, by its number (from 0). */
    void showLogsOfAttempt(String number) {
        new Select(browser.findElement(By.id("log-attempt"))).selectByValue(number);
    }

    String fullLogHrefOf(String replicaId) {
        return browser.findElement(By.cssSelector("a[aria-label='Full log of " + replicaId + "']")).getDomAttribute("href");
    }

    void takeStacks() {
        browser.findElement(By.xpath("//section[@id='stacks']//button[.='Take stacks now']")).click();
    }

    /** The title of each rank's column in the Stacks section, in order. */
    List<String> stackRanks() {
        return browser.findElements(By.cssSelector("#stacks .rank h3")).stream()
                .map(title -> title.getDomProperty("textContent").strip()).toList();
    }

    /** The functions of a rank's frames that are marked as different from the other ranks'. */
    List<String> markedFramesOf(String replicaId) {
        return browser.findElements(By.xpath("//section[@id='stacks']//section[@class='rank'][starts-with(h3, '"
                        + replicaId + " ')]//li[contains(@class, 'differs')]/span[@class='function']")).stream()
                .map(function -> function.getDomProperty("textContent").strip()).toList();
    }

    String logTailOf(String replicaId) {
        return text("#log-" + replicaId + " pre");
    }

    /** Where the chart of {@code metric} marks each later attempt's start: "attempt N at step S", in order. */
    List<String> attemptMarksOf(String metric) {
        return chart(metric).findElements(By.cssSelector("text.chart-attempt-label")).stream()
                .map(mark -> mark.getDomProperty("textContent") + " at step " + mark.getDomAttribute("data-step")).toList();
    }

    /** The numbers on the value axis of the chart of {@code metric}, bottom to top. */
    List<String> valueTicksOf(String metric) {
        return chart(metric).findElements(By.cssSelector("text.chart-tick[text-anchor='end']")).stream()
                .map(tick -> tick.getDomProperty("textContent")).toList();
    }

    /** What the chart of {@code metric} says in words: each trainer's last value, where later attempts began. */
    String chartSummaryOf(String metric) {
        return chart(metric).findElement(By.cssSelector("p.visually-hidden")).getDomProperty("textContent");
    }

    void showOnLogScale(String metric) {
        chart(metric).findElement(By.cssSelector("label.chart-scale")).click();
    }

    private WebElement chart(String metric) {
        return browser.findElement(By.cssSelector("figure.chart[data-metric='" + metric + "']"));
    }

    /** One fact of the plan, by its name: {@code Trainer entry point}, {@code Pserver ports}, ... */
    String planFact(String name) {
        return textAt("//dl[@id='spec']/dt[.='" + name + "']/following-sibling::dd[1]");
    }

    void openFullLogOf(String replicaId) {
        browser.findElement(By.cssSelector("a[aria-label='Full log of " + replicaId + "']")).click();
    }

    <T> T await(Function<WebDriver, T> condition) {
        // A page that reloads itself (after a token is entered) replaces the elements being looked at.
        return new WebDriverWait(browser, DEADLINE).ignoring(StaleElementReferenceException.class).until(condition);
    }

    // The page redraws what it shows when a status arrives: an element found may be replaced before it is read, so
    // find and read in the page, at once. Nothing there is NoSuchElementException, as a find would throw.
    private String text(String cssSelector) {
        return found(((JavascriptExecutor) browser).executeScript(
                "const node = document.querySelector(arguments[0]); return node ? node.textContent : null;",
                cssSelector), cssSelector);
    }

    private String textAt(String xpath) {
        return found(((JavascriptExecutor) browser).executeScript("const node = document.evaluate(arguments[0],"
                + " document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;"
                + " return node ? node.textContent : null;", xpath), xpath);
    }

    private static String found(Object text, String where) {
        if (text == null) {
            throw new NoSuchElementException("nothing at " + where);
        }
        return text.toString().strip();
    }
}

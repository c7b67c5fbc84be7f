package io.paddlejobs.api;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The status page as a person reads it: what the tests look at, by what it means rather than by markup. */
final class StatusPage {

    static final Duration DEADLINE = Duration.ofSeconds(30);

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
        return text(By.id("phase"));
    }

    String why() {
        return browser.findElement(By.id("why")).getText();
    }

    String progress() {
        return text(By.id("progress-text"));
    }

    /** "Running for", "Ran for", "Waiting for" ... and the duration after it. */
    String elapsed() {
        return text(By.id("elapsed-label")) + " " + text(By.id("elapsed"));
    }

    /** The exact instant behind the readable start time. */
    String startedAt() {
        return browser.findElement(By.id("started-at")).getDomAttribute("datetime");
    }

    /** The cells of one row of the resources table, after its header ({@code Trainers, each}, {@code Whole job}). */
    List<String> resources(String rowHeader) {
        return browser.findElements(By.xpath("//table[@id='resources']//tr[th='" + rowHeader + "']/td")).stream()
                .map(cell -> cell.getDomProperty("textContent").strip())
                .toList();
    }

    String exitCodeOf(String replicaId) {
        return text(By.xpath("//table[@id='replicas']//tr[th='" + replicaId + "']/td[@data-label='Exit code']"));
    }

    String stateOf(String replicaId) {
        return text(By.xpath("//table[@id='replicas']//tr[th='" + replicaId + "']/td[@data-label='State']"));
    }

    String logTailOf(String replicaId) {
        return text(By.cssSelector("#log-" + replicaId + " pre"));
    }

    /** One fact of the plan, by its name: {@code Trainer entry point}, {@code Pserver ports}, ... */
    String planFact(String name) {
        return text(By.xpath("//dl[@id='spec']/dt[.='" + name + "']/following-sibling::dd[1]"));
    }

    void openFullLogOf(String replicaId) {
        browser.findElement(By.cssSelector("a[aria-label='Full log of " + replicaId + "']")).click();
    }

    <T> T await(Function<WebDriver, T> condition) {
        // A page that reloads itself (after a token is entered) replaces the elements being looked at.
        return new WebDriverWait(browser, DEADLINE).ignoring(StaleElementReferenceException.class).until(condition);
    }

    private String text(By locator) {
        WebElement element = browser.findElement(locator);
        return element.getDomProperty("textContent").strip();
    }
}

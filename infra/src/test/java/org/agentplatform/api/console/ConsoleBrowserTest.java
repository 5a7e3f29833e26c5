package org.agentplatform.api.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.agentplatform.infra.cli.UsersCommandAccess;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.WebhookReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser (Debian's headless Chromium driven through chromium-driver) against the real service:
 * signing in with a key and with a password, a task created from the console streaming to {@code completed} without a
 * reload, a cancel, an {@code input_required} answered, a failing webhook's rows and their redelivery, the time slider,
 * a conversation of two turns, an instance's screen clicked from the page and its terminal, the audit verify action
 * before and after a byte of the store is edited, the CSP and an XSS probe. Each page's screenshot is written to
 * {@code infra/target/console-screenshots/} for review.
 */
class ConsoleBrowserTest extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path SHOTS = Path.of("target", "console-screenshots");

    @TempDir
    Path profile;

    private ChromeDriver browser;
    private WebDriverWait wait;
    private PlatformClient owner;
    private String agent;

    @BeforeEach
    void openBrowser() throws IOException {
        owner = platform();
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                "--user-data-dir=" + profile.resolve("profile"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, java.util.logging.Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService driver = new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort().build();
        browser = new ChromeDriver(driver, options);
        wait = new WebDriverWait(browser, WAIT, Duration.ofMillis(100));
        // the pages redraw what changed: an element read while it is replaced is read again
        wait.ignoring(StaleElementReferenceException.class);
        Files.createDirectories(SHOTS);
    }

    @AfterEach
    void closeBrowser(TestInfo test) throws IOException {
        if (browser != null) {
            // how the page looked when the test ended, for a failure's report
            shot("last-" + test.getTestMethod().orElseThrow().getName());
            List<String> refused = browser.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::getMessage)
                    .filter(message -> message.contains("Content Security Policy")).toList();
            browser.quit();
            assertThat(refused).as("what the page's policy refused").isEmpty();
        }
    }

    @Test
    void aTaskStreamsIsCanceledAndAnsweredWhileItsWebhookIsRedeliveredAndItsPastShown() throws IOException {
        agent = owner.createAgent(owner.runningInstance("linux"), "console-agent");
        signInWithTheKey();
        // the inbox is live: a task created elsewhere appears, then turns completed, without a reload
        String elsewhere = owner.task(agent, "made by the API");
        wait.until(page -> status("inbox-rows tr[data-task='" + elsewhere + "']").equals("completed"));
        shot("inbox");

        // created from the console: deltas fold into the reply while it streams, then completed, without a reload. Every
        // text the reply shows is recorded as the page changes it, so the streaming is seen however late the page attaches
        browser.executeScript("""
                window.notReloaded = true;
                window.replies = [];
                new MutationObserver(() => {
                  const reply = document.getElementById("reply");
                  if (reply && window.replies[window.replies.length - 1] !== reply.textContent) {
                    window.replies.push(reply.textContent);
                  }
                }).observe(document.body, { subtree: true, childList: true, characterData: true });""");
        new Select(browser.findElement(By.id("new-task-agent"))).selectByValue(agent);
        browser.findElement(By.id("new-task-message")).sendKeys("one two three four five six\n/echo take_ms=1500");
        browser.findElement(By.cssSelector("#new-task button[type=submit]")).click();
        wait.until(ExpectedConditions.urlMatches("/console/tasks/[^/]+/[^/]+$"));
        wait.until(page -> status("task-status").equals("completed") && text("reply").equals("echo: one two three four five six"));
        @SuppressWarnings("unchecked")
        List<String> replies = (List<String>) browser.executeScript("return window.replies");
        String whole = "echo: one two three four five six";
        assertThat(replies).as("the reply as the deltas folded into it").endsWith(whole)
                .filteredOn(shown -> !shown.isEmpty() && !shown.equals(whole)).hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(partial -> assertThat(whole).startsWith(partial));
        assertThat(browser.executeScript("return window.notReloaded")).as("the page was not reloaded").isEqualTo(true);
        shot("task");

        // the past: at its creation instant the task was queued (the slider moved with the keyboard)
        WebElement slider = browser.findElement(By.id("as-of"));
        slider.sendKeys(Keys.HOME);
        wait.until(page -> status("as-of-status").equals("queued"));
        wait.until(page -> browser.findElements(By.cssSelector("#timeline li")).size() >= 4);
        assertThat(text("timeline")).contains("TaskCreated").contains("TaskCompleted");

        // canceled from the page
        String hanging = owner.task(agent, "wait forever\n/echo then=hang");
        open("/console/tasks/" + agent + "/" + hanging);
        wait.until(page -> status("task-status").equals("running"));
        browser.findElement(By.id("cancel")).click();
        wait.until(page -> status("task-status").equals("canceled"));

        // input_required answered from the page; its webhook fails, then is redelivered once the receiver answers 200
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            receiver.answer("/hook", 500);
            String asking = owner.task(agent, "which colour?\n/echo then=input");
            owner.awaitTask(agent, asking, "input_required");
            open("/console/tasks/" + agent + "/" + asking);
            browser.findElement(By.id("webhook-url")).sendKeys(receiver.url("/hook"));
            browser.findElement(By.cssSelector("#new-webhook button")).click();
            wait.until(page -> browser.findElement(By.id("continue")).isDisplayed());
            browser.findElement(By.id("continue-message")).sendKeys("blue");
            browser.findElement(By.cssSelector("#continue button")).click();
            wait.until(page -> status("task-status").equals("completed"));
            // the reply comes in its own frame of the stream, which the page handles apart from the status's
            wait.until(page -> text("reply").equals("echo: blue"));
            assertThat(browser.findElements(By.cssSelector("#messages li")).stream().map(WebElement::getText).toList())
                    .as("each message once, though the stream was followed again after the answer").hasSize(4);
            wait.until(page -> !browser.findElements(By.cssSelector("#webhooks tr[data-status=dead_letter]")).isEmpty());
            assertThat(text("webhooks")).contains("500");
            shot("task-webhooks");
            receiver.answer("/hook", 200);
            browser.findElement(By.cssSelector("#webhooks tr[data-status=dead_letter] button.redeliver")).click();
            wait.until(page -> !browser.findElements(By.cssSelector("#webhooks tr[data-status=succeeded]")).isEmpty());
        }
    }

    @Test
    void aConversationHasTwoTurnsAndAPasswordSignsIn() throws IOException {
        agent = owner.createAgent(owner.runningInstance("linux"), "chat-agent");
        String email = "console-" + UUID.randomUUID() + "@example.com";
        assertThat(users("create", "--email", email)).isZero();
        open("/console/conversations?agent=" + agent);
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys(PASSWORD);
        browser.findElement(By.cssSelector("#password-form button")).click();
        wait.until(page -> text("who").contains("(user)"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("new-conversation")));

        browser.findElement(By.id("conversation-title")).sendKeys("Two turns");
        browser.findElement(By.cssSelector("#new-conversation button")).click();
        wait.until(ExpectedConditions.urlMatches("/console/conversations/[^/?]+/[^/?]+$"));
        say("first words");
        wait.until(page -> agentTurns().contains("echo: first words"));
        say("second words");
        wait.until(page -> agentTurns().contains("echo: second words"));
        assertThat(agentTurns()).containsExactly("echo: first words", "echo: second words");
        // a third turn that would never end, canceled from the page
        say("third words\n/echo then=hang");
        wait.until(page -> status("turn-status").equals("running"));
        browser.findElement(By.id("cancel-turn")).click();
        wait.until(page -> status("turn-status").equals("canceled"));
        assertThat(status("conversation-status")).isEqualTo("open");
        shot("conversation");
        browser.findElement(By.id("close-conversation")).click();
        wait.until(page -> status("conversation-status").equals("closed"));

        // a reload shows the same conversation (the page comes from its path)
        browser.navigate().refresh();
        wait.until(page -> agentTurns().size() == 2 && status("conversation-status").equals("closed"));
        browser.navigate().back();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("new-conversation")));
        shot("conversations");
    }

    @Test
    void anInstanceScreenIsClickedAndItsTerminalAnswers() throws IOException {
        // a mac instance's screen is the local provider's virtual one, which draws what it is asked to do (a linux instance
        // gets a real, empty X display where Xvfb is installed, whose pixels a click does not change)
        String instance = owner.runningInstance("mac");
        signInWithTheKey();
        open("/console/instances");
        wait.until(page -> !browser.findElements(By.cssSelector("#instances tr[data-instance='" + instance + "']")).isEmpty());
        shot("instances");
        browser.findElement(By.cssSelector("#instances tr[data-instance='" + instance + "'] a")).click();
        wait.until(page -> browser.findElement(By.id("screen")).getAttribute("src") != null
                && browser.findElement(By.id("screen")).getAttribute("src").startsWith("data:image"));
        String before = browser.findElement(By.id("screen")).getAttribute("src");
        WebElement screen = browser.findElement(By.id("screen"));
        new Actions(browser).moveToElement(screen, 40, 30).click().perform();
        wait.until(page -> !before.equals(browser.findElement(By.id("screen")).getAttribute("src")));

        // a runtime method called from the page, its operation's events streamed to its end
        WebElement params = browser.findElement(By.id("rpc-params"));
        params.clear();
        params.sendKeys("{\"name\": \"made-in-the-console\"}");
        browser.findElement(By.cssSelector("#rpc button")).click();
        wait.until(page -> !browser.findElements(By.cssSelector("#operation-events li[data-event=succeeded]")).isEmpty());

        browser.findElement(By.id("open-terminal")).click();
        wait.until(page -> "true".equals(browser.findElement(By.id("terminal")).getAttribute("data-open")));
        browser.findElement(By.cssSelector("#terminal textarea")).sendKeys("echo $((40 + 2))\n");
        wait.until(page -> terminalLines().stream().anyMatch(line -> line.strip().equals("42")));
        shot("instance");
    }

    @Test
    void theAuditVerifyActionNamesAnEditedEventAndAMessageRendersAsText() throws IOException, InterruptedException {
        agent = owner.createAgent(owner.runningInstance("linux"), "audit-agent");
        String probe = "<img src=x onerror=alert(1)>";
        String task = owner.task(agent, probe);
        owner.awaitTask(agent, task, "completed");
        signInWithTheKey();

        open("/console/tasks/" + agent + "/" + task);
        wait.until(page -> text("messages").contains(probe));
        assertThat(browser.findElements(By.cssSelector("#view img"))).as("the message is text, not markup").isEmpty();

        open("/console/operators");
        wait.until(page -> !browser.findElements(By.cssSelector("#processors tr")).isEmpty());
        // the page reads the budget apart from the processors: it shows once its own read has answered
        wait.until(page -> text("control-budget").contains("of 60 a minute left"));
        assertThat(text("control-budget")).contains("of 300 a minute left");
        browser.findElement(By.id("verify")).click();
        wait.until(page -> text("verify-result").startsWith("ok: "));
        shot("operators");
        long changed = wait.until(page -> {
            List<Long> chained = jdbc().queryForList("SELECT a.global_index FROM audit_event a JOIN domain_event_entry e"
                    + " ON e.global_index = a.global_index WHERE e.aggregate_identifier = ? ORDER BY a.position", Long.class, task);
            return chained.size() > 2 ? chained.get(2) : null;
        });
        byte[] original = jdbc().queryForObject("SELECT payload FROM domain_event_entry WHERE global_index = ?", byte[].class, changed);
        byte[] edited = original.clone();
        edited[edited.length / 2] ^= 0x01;
        jdbc().update("UPDATE domain_event_entry SET payload = ? WHERE global_index = ?", edited, changed);
        try {
            browser.findElement(By.id("verify")).click();
            wait.until(page -> text("verify-result").startsWith("MISMATCH"));
            assertThat(text("verify-result")).contains("event at global index " + changed + " ");
        } finally {
            jdbc().update("UPDATE domain_event_entry SET payload = ? WHERE global_index = ?", original, changed);
        }

        HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url("/console/operators"))).build(),
                HttpResponse.BodyHandlers.ofString());
        String policy = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(policy).contains("script-src 'self'").contains("frame-ancestors 'none'").doesNotContain("unsafe-inline")
                .doesNotContain("unsafe-eval");
        assertThat(page.body()).doesNotContain("<script>").as("no inline script");
    }

    private static final String PASSWORD = "console-password-1";

    private int users(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(cliSettings());
        return UsersCommandAccess.run(all.toArray(String[]::new),
                new ByteArrayInputStream((PASSWORD + "\n").getBytes(StandardCharsets.UTF_8)), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
    }

    private void signInWithTheKey() throws IOException {
        open("/console");
        shot("sign-in");
        browser.findElement(By.id("api-key")).sendKeys(firstKey());
        browser.findElement(By.cssSelector("#key-form button")).click();
        wait.until(page -> text("who").contains("(api_key)"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("new-task")));
    }

    private void open(String path) {
        browser.get(url(path));
        wait.until(page -> !text("view").equals("Loading…"));
    }

    private String url(String path) {
        return "http://localhost:" + port + path;
    }

    private void say(String message) {
        wait.until(ExpectedConditions.elementToBeClickable(By.id("chat-message"))).sendKeys(message);
        browser.findElement(By.cssSelector("#chat-send button")).click();
    }

    private List<String> agentTurns() {
        return browser.findElements(By.cssSelector("#chat li.role-agent:not(.streaming) pre")).stream().map(WebElement::getText).toList();
    }

    @SuppressWarnings("unchecked")
    private List<String> terminalLines() {
        return (List<String>) ((JavascriptExecutor) browser).executeScript(
                "return [...document.querySelectorAll('#terminal .xterm-accessibility-tree > div')].map(row => row.textContent)");
    }

    /** The element's text now (read again when the page replaced it meanwhile). */
    private String text(String id) {
        return wait.until(page -> {
            List<WebElement> found = browser.findElements(By.id(id));
            return found.isEmpty() ? "" : found.getFirst().getText();
        });
    }

    /** The status badge's status inside the element the selector (without its {@code #}) names, now. */
    private String status(String selector) {
        return wait.until(page -> {
            List<WebElement> found = browser.findElements(By.cssSelector("#" + selector + " [data-status]"));
            return found.isEmpty() ? "" : found.getFirst().getAttribute("data-status");
        });
    }

    private void shot(String name) throws IOException {
        Files.write(SHOTS.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }
}

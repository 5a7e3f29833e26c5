package org.agentplatform.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A real browser (headless Chromium) runs a page from an allowed origin and from another one. From the allowed origin
 * the page lists instances with a bearer key (a preflighted request), reads the exposed headers, streams an operation's
 * events with {@code fetch}, and resumes the stream with {@code Last-Event-ID} (also preflighted); from the other origin
 * the browser refuses to hand the page any answer. The origins are names the browser maps to a page server on 127.0.0.1.
 */
class BrowserCorsTest extends ApiTest {

    private static final Pattern RESULT = Pattern.compile("<pre id=\"result\">(.*?)</pre>", Pattern.DOTALL);

    @TempDir
    Path profile;

    @Test
    void aPageOnTheAllowedOriginCallsTheApiAndStreamsWhileAnotherOriginGetsNothing() throws IOException, InterruptedException {
        PlatformClient owner = platform();
        String instance = owner.runningInstance("linux");
        String operation = owner.operationOf(instance, "agent/create", Map.of("name", "browsed"));
        owner.awaitOperation(instance, operation, "succeeded");
        String page = PAGE.replace("API", "http://127.0.0.1:" + port).replace("KEY", firstKey())
                .replace("EVENTS", "/api/v1/instances/" + instance + "/operations/" + operation + "/events");

        HttpServer pages = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        pages.createContext("/", exchange -> {
            byte[] html = page.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, html.length);
            exchange.getResponseBody().write(html);
            exchange.close();
        });
        pages.start();
        try {
            JsonNode allowed = browse("http://allowed.test/", pages.getAddress().getPort());
            assertThat(allowed.path("error").isMissingNode()).as("the allowed origin's calls: %s", allowed).isTrue();
            assertThat(allowed.get("list").asInt()).isEqualTo(200);
            assertThat(allowed.get("request_id").asString()).as("an exposed header").startsWith("req_");
            assertThat(allowed.get("limit").asString()).as("an exposed rate limit header").isNotEmpty();
            assertThat(allowed.get("stream").asInt()).isEqualTo(200);
            assertThat(allowed.get("events").asString()).contains("event:operation.succeeded");
            assertThat(allowed.get("resumed").asInt()).as("resumed past the end with Last-Event-ID").isEqualTo(204);

            JsonNode refused = browse("http://refused.test/", pages.getAddress().getPort());
            assertThat(refused.path("error").asString()).as("another origin's calls: %s", refused).contains("Failed to fetch");
            assertThat(refused.has("list")).isFalse();
        } finally {
            pages.stop(0);
        }
    }

    /** Loads the page in headless Chromium, the test origins mapped to the page server, and answers what the page wrote. */
    private JsonNode browse(String url, int pagePort) throws IOException, InterruptedException {
        String rules = "MAP allowed.test 127.0.0.1:" + pagePort + ",MAP refused.test 127.0.0.1:" + pagePort;
        Path errors = profile.resolve("chromium.log");
        Process chromium = new ProcessBuilder(List.of("timeout", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--user-data-dir=" + profile.resolve("profile"), "--host-resolver-rules=" + rules,
                "--virtual-time-budget=30000", "--dump-dom", url))
                .redirectError(errors.toFile()).start();
        String dom = new String(chromium.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(chromium.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(chromium.exitValue()).as("chromium's exit status; it logged:%n%s", Files.readString(errors)).isZero();
        Matcher result = RESULT.matcher(dom);
        assertThat(result.find()).as("the page's result in the DOM:%n%s", dom).isTrue();
        String text = result.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
        assertThat(text).as("the page finished").isNotEqualTo("pending");
        return JSON.readTree(text);
    }

    /** The browser app: API, KEY and EVENTS are filled in; it writes what it saw into #result as JSON. */
    private static final String PAGE = """
            <!doctype html>
            <html><body><pre id="result">pending</pre>
            <script>
            (async () => {
              const auth = { Authorization: "Bearer KEY" };
              const out = {};
              try {
                const list = await fetch("API/api/v1/instances?limit=1", { headers: auth });
                out.list = list.status;
                out.request_id = list.headers.get("X-Request-Id");
                out.limit = list.headers.get("X-RateLimit-Limit");
                const stream = await fetch("APIEVENTS", { headers: auth });
                out.stream = stream.status;
                const text = await stream.text();
                out.events = (text.match(/^event:.*$/gm) || []).join(" ");
                const ids = text.match(/^id:.*$/gm) || [];
                const last = ids.length ? ids[ids.length - 1].slice(3).trim() : "";
                const resumed = await fetch("APIEVENTS", { headers: { ...auth, "Last-Event-ID": last } });
                out.resumed = resumed.status;
              } catch (failure) {
                out.error = String(failure);
              }
              document.getElementById("result").textContent = JSON.stringify(out);
            })();
            </script></body></html>
            """;
}

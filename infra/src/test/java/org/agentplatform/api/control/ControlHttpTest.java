package org.agentplatform.api.control;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/**
 * Computer and mobile control through real HTTP on the local provider, each test as a fresh owner (the budget is
 * the owner's): every action of both surfaces, screenshots that decode and change, the refusals, the budget across
 * credentials and instances, a failing budget store, and the audit events.
 */
class ControlHttpTest extends ApiTest {

    private PlatformClient owner;

    @BeforeEach
    void aFreshOwner() {
        owner = stranger();
    }

    @Test
    void aDesktopIsDrivenAndEachScreenshotShowsTheActionsBeforeIt() {
        String windows = owner.runningInstance("windows");
        EntityExchangeResult<byte[]> infoResult = owner.get("/api/v1/instances/{i}/computer", windows).exchange().expectStatus().isOk()
                .expectBody().returnResult();
        JsonNode info = json(infoResult).get("data");
        assertThat(info.get("width").asInt()).isEqualTo(1280);
        assertThat(info.get("height").asInt()).isEqualTo(800);
        assertThat(info.get("cursor").get("x").asInt()).isBetween(0, 1279);
        assertThat(strings(info.get("actions"))).containsExactly("screenshot", "click", "move", "scroll", "type", "key");
        assertThat(infoResult.getResponseHeaders().getFirst("X-RateLimit-Limit")).isEqualTo("300");
        assertThat(infoResult.getResponseHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("299");

        byte[] before = png(windows, "computer", 1280, 800);
        act(windows, "computer", "click", Map.of("x", 200, "y", 100));
        byte[] clicked = png(windows, "computer", 1280, 800);
        assertThat(clicked).isNotEqualTo(before);
        act(windows, "computer", "type", Map.of("text", "hello secret world"));
        byte[] typed = png(windows, "computer", 1280, 800);
        assertThat(typed).isNotEqualTo(clicked);
        act(windows, "computer", "key", Map.of("key", "Return"));
        act(windows, "computer", "key", Map.of("keys", List.of("ctrl+a", "BackSpace")));
        act(windows, "computer", "move", Map.of("x", 640, "y", 400));
        assertThat(body(owner.get("/api/v1/instances/{i}/computer", windows).exchange(), 200).at("/data/cursor/x").asInt()).isEqualTo(640);
        act(windows, "computer", "scroll", Map.of("direction", "down", "amount", 5));
        JsonNode answer = act(windows, "computer", "scroll", Map.of("x", 100, "y", 300, "dy", -2));
        assertThat(answer.get("action").asString()).isEqualTo("scroll");
        assertThat(answer.get("performed").asBoolean()).isTrue();
        JsonNode shot = body(owner.post("/api/v1/instances/{i}/computer/screenshot", windows).exchange(), 200).get("data");
        assertThat(shot.get("format").asString()).isEqualTo("png");
        assertThat(decode(Base64.getDecoder().decode(shot.get("data_b64").asString())).getWidth()).isEqualTo(1280);

        List<JsonNode> recorded = recorded(windows);
        assertThat(recorded).extracting(event -> event.get("action").asString())
                .containsExactly("CLICK", "TYPE", "KEY", "KEY", "MOVE", "SCROLL", "SCROLL");
        JsonNode typing = recorded.get(1);
        assertThat(typing.get("params").get("text_length").asInt()).isEqualTo(18);
        assertThat(typing.toString()).doesNotContain("secret");
        assertThat(jdbc().queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type LIKE '%ControlActionPerformed'"
                + " AND convert_from(payload, 'UTF8') LIKE '%secret%'", Long.class)).isZero();
        assertThat(jdbc().queryForList("SELECT convert_from(meta_data, 'UTF8') FROM domain_event_entry WHERE payload_type LIKE"
                + " '%ControlActionPerformed' AND convert_from(payload, 'UTF8') LIKE ?", String.class, "%" + windows + "%"))
                .hasSize(7).allSatisfy(metadata -> assertThat(metadata).contains("requestId").contains("ownerId"));
    }

    @Test
    void aPhoneIsDrivenWithItsButtons() {
        String android = owner.runningInstance("android");
        JsonNode info = body(owner.get("/api/v1/instances/{i}/mobile", android).exchange(), 200).get("data");
        assertThat(info.get("width").asInt()).isEqualTo(720);
        assertThat(info.get("height").asInt()).isEqualTo(1280);
        assertThat(info.get("orientation").asString()).isEqualTo("portrait");
        assertThat(strings(info.get("actions"))).containsExactly("screenshot", "scroll", "type", "key", "tap", "swipe", "press_button");
        assertThat(strings(info.get("buttons"))).containsExactly("home", "back", "recents", "power", "volume_up", "volume_down");

        byte[] home = png(android, "mobile", 720, 1280);
        act(android, "mobile", "tap", Map.of("x", 120, "y", 260));
        byte[] app = png(android, "mobile", 720, 1280);
        assertThat(app).isNotEqualTo(home);
        act(android, "mobile", "type", Map.of("text", "note"));
        act(android, "mobile", "key", Map.of("key", "enter"));
        act(android, "mobile", "swipe", Map.of("x1", 360, "y1", 1000, "x2", 360, "y2", 400, "duration_ms", 250));
        act(android, "mobile", "scroll", Map.of("direction", "up"));
        byte[] beforeButton = png(android, "mobile", 720, 1280);
        act(android, "mobile", "press_button", Map.of("button", "recents"));
        byte[] recents = png(android, "mobile", 720, 1280);
        assertThat(recents).isNotEqualTo(beforeButton);
        act(android, "mobile", "press_button", Map.of("button", "home"));
        assertThat(png(android, "mobile", 720, 1280)).isNotEqualTo(recents);
        for (String button : List.of("back", "volume_up", "volume_down", "power")) {
            act(android, "mobile", "press_button", Map.of("button", button));
        }
        assertThat(recorded(android)).hasSize(11);
    }

    @Test
    void theWrongSurfaceUnknownOrForeignInstancesAreNotFoundAndBadParametersAreNamed() {
        String windows = owner.runningInstance("windows");
        String android = owner.runningInstance("android");
        assertError(owner.get("/api/v1/instances/{i}/computer", android).exchange(), 404, "not_found", "");
        assertError(owner.get("/api/v1/instances/{i}/mobile", windows).exchange(), 404, "not_found", "");
        assertError(owner.post("/api/v1/instances/{i}/mobile/tap", windows).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("x", 1, "y", 1)).exchange(), 404, "not_found", "");
        assertError(owner.post("/api/v1/instances/{i}/computer/tap", windows).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("x", 1, "y", 1)).exchange(), 404, "not_found", "");
        assertError(stranger().get("/api/v1/instances/{i}/computer", windows).exchange(), 404, "not_found", "");
        assertError(owner.get("/api/v1/instances/{i}/computer", "00000000-0000-4000-8000-000000000000").exchange(), 404, "not_found", "");

        assertError(click(windows, Map.of("x", 1280, "y", 10)), 400, "invalid_param", "x");
        assertError(click(windows, Map.of("x", 10, "y", -1)), 400, "invalid_param", "y");
        assertError(click(windows, Map.of("x", 10.5, "y", 1)), 400, "invalid_param", "x");
        assertError(click(windows, Map.of("x", 10, "y", 10, "button", "thumb")), 400, "invalid_param", "button");
        assertError(click(windows, Map.of("y", 10)), 400, "missing_param", "x");
        assertError(owner.post("/api/v1/instances/{i}/computer/key", windows).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("key", "hyper+q")).exchange(), 400, "invalid_param", "key");
        assertError(owner.post("/api/v1/instances/{i}/computer/key", windows).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("keys", List.of("a", "NoSuchKey"))).exchange(), 400, "invalid_param", "keys[1]");
        assertError(owner.post("/api/v1/instances/{i}/mobile/press_button", android).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("button", "jump")).exchange(), 400, "invalid_param", "button");
        assertError(owner.post("/api/v1/instances/{i}/mobile/swipe", android).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("x1", 1, "y1", 1, "x2", 900, "y2", 1)).exchange(), 400, "invalid_param", "x2");
        assertError(owner.post("/api/v1/instances/{i}/computer/type", windows).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("text", "a\u0000b")).exchange(), 400, "invalid_param", "text");
        assertThat(recorded(windows)).isEmpty();

        body(owner.post("/api/v1/instances/{i}/stop", windows).exchange(), 200);
        owner.awaitInstance(windows, "stopped");
        assertError(owner.get("/api/v1/instances/{i}/computer", windows).exchange(), 409, "conflict", "");
        assertError(click(windows, Map.of("x", 1, "y", 1)), 409, "conflict", "");
    }

    @Test
    void theBudgetIsTheOwnersAcrossKeysTokensAndInstances() {
        String first = owner.runningInstance("windows");
        String second = owner.runningInstance("mac");
        List<PlatformClient> credentials = List.of(owner, new PlatformClient(http, key(owner, "one")), new PlatformClient(http, key(owner, "two")));
        PlatformClient other = stranger();
        String others = other.runningInstance("linux");
        AtomicInteger admitted = new AtomicInteger();
        AtomicInteger limited = new AtomicInteger();
        // however slow the machine, no second passes during the burst, so the budget cannot refill in it
        clock.stop();
        // the test's own threads: blocking the service's bounded-elastic pool would starve the service under test
        ExecutorService clients = Executors.newFixedThreadPool(12);
        Flux.range(0, 120).flatMap(index -> reactor.core.publisher.Mono.fromCallable(() -> {
            PlatformClient credential = credentials.get(index % credentials.size());
            int status = credential.post("/api/v1/instances/{i}/computer/move", index % 2 == 0 ? first : second)
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("x", index, "y", index)).exchange()
                    .returnResult(String.class).getStatus().value();
            if (status == 200) {
                admitted.incrementAndGet();
            } else if (status == 429) {
                limited.incrementAndGet();
            }
            return status;
        }).subscribeOn(Schedulers.fromExecutor(clients)), 12).blockLast();
        clients.shutdown();
        assertThat(admitted.get()).isEqualTo(60);
        assertThat(admitted.get() + limited.get()).isEqualTo(120);
        assertThat(recorded(first).size() + recorded(second).size()).isEqualTo(admitted.get());

        EntityExchangeResult<byte[]> refused = owner.post("/api/v1/instances/{i}/computer/move", first).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("x", 1, "y", 1)).exchange().expectStatus().isEqualTo(429).expectBody().returnResult();
        assertThat(json(refused).at("/error/code").asString()).isEqualTo("rate_limited");
        assertThat(Long.parseLong(refused.getResponseHeaders().getFirst("Retry-After"))).isEqualTo(1L);
        assertThat(refused.getResponseHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
        // the other owner is not affected, and info has its own budget
        act(other, others, "computer", "move", Map.of("x", 5, "y", 5));
        body(owner.get("/api/v1/instances/{i}/computer", first).exchange(), 200);
    }

    @Test
    void aFailingBudgetStoreIs503AndNothingReachesTheDevice() {
        String windows = owner.runningInstance("windows");
        byte[] before = png(windows, "computer", 1280, 800);
        jdbc().execute("CREATE OR REPLACE FUNCTION control_budget_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " RAISE EXCEPTION 'the budget store is down'; END $$");
        jdbc().execute("CREATE TRIGGER control_budget_down BEFORE INSERT OR UPDATE ON control_budget FOR EACH ROW"
                + " EXECUTE FUNCTION control_budget_down()");
        try {
            assertError(click(windows, Map.of("x", 300, "y", 100)), 503, "control_rate_limit_unavailable", "");
            assertError(owner.post("/api/v1/instances/{i}/computer/type", windows).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("text", "lost")).exchange(), 503, "control_rate_limit_unavailable", "");
            assertError(owner.get("/api/v1/instances/{i}/computer", windows).exchange(), 503, "control_rate_limit_unavailable", "");
        } finally {
            jdbc().execute("DROP TRIGGER IF EXISTS control_budget_down ON control_budget");
            jdbc().execute("DROP FUNCTION IF EXISTS control_budget_down()");
        }
        assertThat(png(windows, "computer", 1280, 800)).isEqualTo(before);
        assertThat(recorded(windows)).isEmpty();
    }

    @Test
    void injectedFaultsApplyToControlActions() {
        String windows = owner.runningInstance("windows");
        displayGoneOnce(windows, "computer/click");
        assertError(click(windows, Map.of("x", 10, "y", 10)), 503, "agent_service_unavailable", "");
        act(windows, "computer", "click", Map.of("x", 10, "y", 10));
        assertThat(recorded(windows)).extracting(event -> event.get("outcome").asString()).containsExactly("agent_service_unavailable", "performed");
    }

    @Test
    void injectedFaultsApplyToScreenshotsAsTheirCodes() {
        String windows = owner.runningInstance("windows");
        displayGoneOnce(windows, "computer/screenshot");
        assertError(owner.post("/api/v1/instances/{i}/computer/screenshot", windows).exchange(), 503, "agent_service_unavailable", "");
        png(windows, "computer", 1280, 800);
    }

    /** The next {@code method} on the instance fails as if its display were gone. */
    private void displayGoneOnce(String instance, String method) {
        owner.faults(instance, List.of(Map.of("method", method, "fail_with", Map.of("code", "agent_service_unavailable",
                "message", "the display is gone"), "times", 1)));
    }

    @Test
    void anInstanceSeenRunningBeforeItsRuntimeIsActivatedCanBeControlled() {
        String windows = owner.runningInstance("windows");
        // the runtime's activation not landed yet: the read model runs ahead of it (separate processors of one event)
        assertThat(jdbc().update("UPDATE local_instance SET state = 'deployed', runtime_epoch = runtime_epoch - 1 WHERE instance_id = ?::uuid",
                windows)).isEqualTo(1);
        png(windows, "computer", 1280, 800);
        act(windows, "computer", "click", Map.of("x", 10, "y", 10));
        assertThat(jdbc().queryForObject("SELECT state FROM local_instance WHERE instance_id = ?::uuid", String.class, windows))
                .isEqualTo("running");
    }

    @Test
    void aLinuxInstanceGetsARealXDisplayWhenXvfbIsInstalled() {
        Assumptions.assumeTrue(onPath("Xvfb") && onPath("xdotool"), "Xvfb and xdotool are not installed");
        String linux = owner.runningInstance("linux");
        JsonNode info = body(owner.get("/api/v1/instances/{i}/computer", linux).exchange(), 200).get("data");
        assertThat(info.get("display").asString()).startsWith(":");
        act(linux, "computer", "move", Map.of("x", 321, "y", 123));
        JsonNode moved = body(owner.get("/api/v1/instances/{i}/computer", linux).exchange(), 200).get("data");
        assertThat(moved.get("cursor").get("x").asInt()).isEqualTo(321);
        assertThat(moved.get("cursor").get("y").asInt()).isEqualTo(123);
        png(linux, "computer", 1280, 800);
        act(linux, "computer", "click", Map.of("x", 10, "y", 10));
        act(linux, "computer", "type", Map.of("text", "typed on a real display"));
        act(linux, "computer", "key", Map.of("key", "ctrl+a"));
        act(linux, "computer", "scroll", Map.of("direction", "down"));
        body(owner.post("/api/v1/instances/{i}/stop", linux).exchange(), 200);
        owner.awaitInstance(linux, "stopped");
        String display = info.get("display").asString();
        PlatformClient.await(() -> !java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/.X11-unix/X" + display.substring(1))), gone -> gone,
                "the display stopped with the instance");
    }

    @Test
    void onARealDisplayThePointerCanActWhereItAlreadyIs() {
        Assumptions.assumeTrue(onPath("Xvfb") && onPath("xdotool"), "Xvfb and xdotool are not installed");
        String linux = owner.runningInstance("linux");
        act(linux, "computer", "move", Map.of("x", 200, "y", 100));
        // each of these starts where the pointer already is: no pointer motion follows, and none may be waited for
        act(linux, "computer", "move", Map.of("x", 200, "y", 100));
        act(linux, "computer", "click", Map.of("x", 200, "y", 100));
        act(linux, "computer", "click", Map.of("x", 200, "y", 100, "clicks", 2));
        act(linux, "computer", "scroll", Map.of("x", 200, "y", 100, "direction", "down"));
        JsonNode still = body(owner.get("/api/v1/instances/{i}/computer", linux).exchange(), 200).get("data");
        assertThat(still.get("cursor").get("x").asInt()).isEqualTo(200);
        assertThat(still.get("cursor").get("y").asInt()).isEqualTo(100);
        assertThat(recorded(linux)).hasSize(5);
    }

    @Test
    void aRealDisplayThatDiesIsAnsweredAsUnavailableThenMadeAnew() throws Exception {
        Assumptions.assumeTrue(onPath("Xvfb") && onPath("xdotool"), "Xvfb and xdotool are not installed");
        String linux = owner.runningInstance("linux");
        String display = body(owner.get("/api/v1/instances/{i}/computer", linux).exchange(), 200).at("/data/display").asString();
        ProcessHandle server = ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().orElse("").matches("^\\S*Xvfb " + display + " .*"))
                .findFirst().orElseThrow();
        server.destroyForcibly();
        server.onExit().get();
        // the screen is gone under a running instance: the device's failure, never an internal error
        assertError(click(linux, Map.of("x", 5, "y", 5)), 503, "agent_service_unavailable", "");
        // and the next request gets a display made anew
        act(linux, "computer", "click", Map.of("x", 5, "y", 5));
        assertThat(body(owner.get("/api/v1/instances/{i}/computer", linux).exchange(), 200).at("/data/display").asString()).startsWith(":");
        body(owner.post("/api/v1/instances/{i}/stop", linux).exchange(), 200);
    }

    private JsonNode act(String instance, String surface, String action, Map<String, ?> params) {
        return act(owner, instance, surface, action, params);
    }

    private static JsonNode act(PlatformClient client, String instance, String surface, String action, Map<String, ?> params) {
        return body(client.post("/api/v1/instances/{i}/" + surface + "/" + action, instance).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(params).exchange(), 200).get("data");
    }

    private org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec click(String instance, Map<String, ?> params) {
        return owner.post("/api/v1/instances/{i}/computer/click", instance).contentType(MediaType.APPLICATION_JSON).bodyValue(params).exchange();
    }

    /** A PNG screenshot of the given size. */
    private byte[] png(String instance, String surface, int width, int height) {
        byte[] png = owner.post("/api/v1/instances/{i}/" + surface + "/screenshot", instance).accept(MediaType.IMAGE_PNG).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.IMAGE_PNG).expectBody().returnResult().getResponseBody();
        BufferedImage image = decode(png);
        assertThat(image.getWidth()).isEqualTo(width);
        assertThat(image.getHeight()).isEqualTo(height);
        return png;
    }

    private static BufferedImage decode(byte[] png) {
        try {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            assertThat(image).as("a PNG").isNotNull();
            return image;
        } catch (IOException failure) {
            throw new AssertionError(failure);
        }
    }

    /** The recorded control actions of an instance, oldest first (their payloads). */
    private List<JsonNode> recorded(String instance) {
        List<JsonNode> events = new ArrayList<>();
        jdbc().queryForList("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE payload_type LIKE '%ControlActionPerformed'"
                        + " AND convert_from(payload, 'UTF8') LIKE ? ORDER BY global_index", String.class, "%" + instance + "%")
                .forEach(payload -> events.add(JSON.readTree(payload)));
        return events;
    }

    private String key(PlatformClient client, String name) {
        return body(client.post("/api/v1/api-keys").contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", name)).exchange(), 201)
                .at("/data/key").asString();
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asString()));
        return values;
    }

    private static boolean onPath(String program) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!directory.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(directory, program))) {
                return true;
            }
        }
        return false;
    }
}

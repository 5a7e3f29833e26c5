package org.agentplatform.api.web;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.WebhookReceiver;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Every list the contract leaves open pages one way (docs/api-conventions.md): newest first, {@code limit} items a page,
 * {@code next_cursor} (a number, null on the last page) handed back as {@code cursor} reaches the oldest item, each item once.
 */
class ListPagingHttpTest extends ApiTest {

    @Test
    void instancesAgentsKeysTerminalsAndWebhooksPageNewestFirstToTheOldest() {
        PlatformClient owner = stranger();
        List<String> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            instances.add(body(owner.post("/api/v1/instances").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("provider", "local", "region", "local", "kind", "linux")).exchange(), 201).at("/data/id").asString());
        }
        assertPagesNewestFirst(owner, "/api/v1/instances", "instances", "id", instances);

        String instance = owner.runningInstance("linux");
        List<String> agents = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            agents.add(owner.createAgent(instance, "paged-" + i));
        }
        // public agents of other owners are listed too: only this owner's are counted
        assertPagesNewestFirst(owner, "/api/v1/agents", "agents", "id", agents);

        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            keys.add(body(owner.post("/api/v1/api-keys").contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "paged-" + i))
                    .exchange(), 201).at("/data/id").asString());
        }
        assertPagesNewestFirst(owner, "/api/v1/api-keys", "api_keys", "id", keys);

        List<String> terminals = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            terminals.add(body(owner.post("/api/v1/instances/{i}/terminal-sessions", instance).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of()).exchange(), 200).at("/data/terminal_id").asString());
        }
        assertPagesNewestFirst(owner, "/api/v1/instances/" + instance + "/terminal-sessions", "terminals", "terminal_id", terminals);

        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String task = owner.task(agents.getFirst(), "wait\n/echo then=hang");
            List<String> webhooks = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                webhooks.add(body(owner.post("/api/v1/agents/{a}/tasks/{t}/webhooks", agents.getFirst(), task).contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(Map.of("url", receiver.url("/paged-" + i))).exchange(), 201).at("/data/webhook_id").asString());
            }
            assertPagesNewestFirst(owner, "/api/v1/agents/" + agents.getFirst() + "/tasks/" + task + "/webhooks", "webhooks", "webhook_id",
                    webhooks);
        }
    }

    @Test
    void aCursorThatIsNotAnOffsetIsRefusedNamingIt() {
        PlatformClient owner = stranger();
        for (String cursor : List.of("x", "-1", "1.5", "99999999999999999999")) {
            assertError(owner.get("/api/v1/instances?cursor={c}", cursor).exchange(), 400, "invalid_param", "cursor");
        }
        JsonNode past = body(owner.get("/api/v1/api-keys?cursor=0").exchange(), 200).get("data");
        assertThat(past.get("api_keys")).isEmpty();
        assertThat(past.get("next_cursor").isNull()).isTrue();
    }

    /**
     * Reads the list page by page, two items a page, following {@code next_cursor} until it is null; the items made here
     * (in {@code made}, oldest first) come back newest first, each once, with none of them skipped.
     */
    private static void assertPagesNewestFirst(PlatformClient owner, String path, String field, String id, List<String> made) {
        await(() -> readAll(owner, path, field, id), listed -> listed.containsAll(made), path + " listing all " + made.size() + " made");
        List<String> listed = readAll(owner, path, field, id);
        assertThat(listed).as("%s: each item once", path).doesNotHaveDuplicates();
        assertThat(listed.stream().filter(made::contains).toList()).as("%s: newest first", path).isEqualTo(made.reversed());
    }

    private static List<String> readAll(PlatformClient owner, String path, String field, String id) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < 1000; pages++) {
            JsonNode page = body(owner.get(path + "?limit=2" + (cursor == null ? "" : "&cursor=" + cursor)).exchange(), 200).get("data");
            assertThat(page.get(field).size()).as("%s: a page holds at most its limit", path).isLessThanOrEqualTo(2);
            page.get(field).forEach(item -> ids.add(item.get(id).asString()));
            if (page.get("next_cursor").isNull()) {
                return ids;
            }
            assertThat(page.get("next_cursor").isIntegralNumber()).as("%s: next_cursor is a number", path).isTrue();
            cursor = page.get("next_cursor").asString();
        }
        throw new AssertionError(path + " did not end within 1000 pages");
    }
}

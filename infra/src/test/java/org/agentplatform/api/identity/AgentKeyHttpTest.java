package org.agentplatform.api.identity;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/** Agent keys ({@code bak_}) through real HTTP: shown once, kept as a hash, three at most (also when created at once), owner only. */
class AgentKeyHttpTest extends ApiTest {

    private PlatformClient owner;
    private String agent;

    @BeforeEach
    void anOwnerWithAnAgent() {
        owner = stranger();
        agent = owner.createAgent(owner.runningInstance("linux"), "keyed");
    }

    @Test
    void aKeyIsShownOnceKeptAsItsHashAndRevoked() throws Exception {
        JsonNode created = create("ci").get("data");
        String key = created.get("key").asString();
        assertThat(key).matches("bak_[0-9a-f]{64}");
        assertThat(created.get("key_prefix").asString()).isEqualTo(key.substring(0, 12));
        assertThat(created.get("agent_id").asString()).isEqualTo(agent);
        byte[] stored = jdbc().queryForObject("SELECT key_hash FROM agent_key WHERE id = ?", byte[].class, UUID.fromString(created.get("id").asString()));
        assertThat(stored).isEqualTo(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.US_ASCII)));
        assertThat(jdbc().queryForObject("SELECT count(*) FROM agent_key WHERE name = ? AND key_prefix = ?", Long.class, "ci", key.substring(0, 12)))
                .isOne();

        JsonNode listed = body(owner.get("/api/v1/agents/{a}/keys", agent).exchange(), 200).get("data");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).has("key")).isFalse();
        assertThat(listed.get(0).get("name").asString()).isEqualTo("ci");

        assertError(http.get().uri("/api/v1/agents").header("Authorization", "Bearer " + key).exchange(), 401, "invalid_token", "");

        JsonNode revoked = body(owner.delete("/api/v1/agents/{a}/keys/{k}", agent, created.get("id").asString()).exchange(), 200).get("data");
        assertThat(revoked.get("revoked_at").isNull()).isFalse();
        assertThat(body(owner.get("/api/v1/agents/{a}/keys", agent).exchange(), 200).get("data")).isEmpty();
        assertError(owner.delete("/api/v1/agents/{a}/keys/{k}", agent, created.get("id").asString()).exchange(), 404, "not_found", "");
        assertError(owner.delete("/api/v1/agents/{a}/keys/{k}", agent, "nope").exchange(), 400, "invalid_param", "keyId");
    }

    @Test
    void aFourthActiveKeyIsAConflictAlsoWhenTheyAreCreatedAtOnce() {
        List<Integer> statuses = Flux.range(0, 6)
                .flatMap(n -> Flux.defer(() -> Flux.just(owner.post("/api/v1/agents/{a}/keys", agent).bodyValue(Map.of("name", "k" + n))
                        .exchange().returnResult(byte[].class).getStatus().value())).subscribeOn(Schedulers.boundedElastic()), 6)
                .collectList().block();
        assertThat(statuses).containsOnly(201, 409);
        assertThat(statuses.stream().filter(status -> status == 201).count()).isEqualTo(3);
        JsonNode listed = body(owner.get("/api/v1/agents/{a}/keys", agent).exchange(), 200).get("data");
        assertThat(listed).hasSize(3);
        assertError(owner.post("/api/v1/agents/{a}/keys", agent).bodyValue(Map.of("name", "fourth")).exchange(), 409, "conflict", "");

        body(owner.delete("/api/v1/agents/{a}/keys/{k}", agent, listed.get(1).get("id").asString()).exchange(), 200);
        assertThat(create("replacement").get("data").get("name").asString()).isEqualTo("replacement");
    }

    @Test
    void onlyTheOwnerManagesAnAgentsKeys() {
        PlatformClient other = stranger();
        assertError(other.post("/api/v1/agents/{a}/keys", agent).bodyValue(Map.of("name", "theirs")).exchange(), 403, "forbidden", "");
        assertError(other.get("/api/v1/agents/{a}/keys", agent).exchange(), 403, "forbidden", "");
        assertError(owner.post("/api/v1/agents/{a}/keys", UUID.randomUUID()).bodyValue(Map.of("name", "x")).exchange(), 404,
                "agent_not_found", "");
        assertError(owner.post("/api/v1/agents/{a}/keys", agent).bodyValue(Map.of()).exchange(), 400, "missing_param", "name");
        assertError(owner.post("/api/v1/agents/{a}/keys", agent).bodyValue(Map.of("name", "")).exchange(), 400, "invalid_param", "name");
    }

    private JsonNode create(String name) {
        return body(owner.post("/api/v1/agents/{a}/keys", agent).bodyValue(Map.of("name", name)).exchange(), 201);
    }
}

package org.agentplatform.api.audit;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.agentplatform.infra.audit.AuditCheckpoints;
import org.agentplatform.infra.cli.AuditCommand;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.PythonRecipe;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The log's Merkle tree through the running service, checked as an auditor would, with the Python recipe of
 * docs/audit.md and nothing else: an inclusion proof of each of a task's events against a signed tree head fetched
 * before more events came; a consistency proof between two signed heads a thousand events apart, which no longer
 * verifies once a stored node between them is edited (and {@code audit verify} names that node); the CLI's offline
 * {@code audit prove} and {@code audit verify-consistency} agree, signatures checked with the JWKS; another owner's
 * event is 404, and the parameters are checked.
 */
class AuditProofHttpTest extends ApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    private AuditCheckpoints checkpoints;

    private PlatformClient owner;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = stranger();
        agent = owner.createAgent(owner.runningInstance("linux"), "proved");
    }

    @Test
    void eachEventOfATaskIsProvedInATreeHeadFetchedBeforeTheLogGrewOn(@TempDir Path scratch) throws Exception {
        Instant started = Instant.now().minusSeconds(1);
        String task = owner.task(agent, "prove me");
        owner.awaitTask(agent, task, "completed");
        List<Long> events = chained(task, 4);
        checkpoints.checkpoint();
        JsonNode head = newestHead();
        assertThat(head.get("tree_size").asLong()).isGreaterThanOrEqualTo(position(events.getLast()));
        verifiesWithTheJwks(head);

        owner.awaitTask(agent, owner.task(agent, "the log grows on"), "completed");
        checkpoints.checkpoint();

        Path headFile = write(scratch, "head.json", head);
        for (long index : events) {
            JsonNode proof = body(owner.get("/api/v1/audit/events/{i}/proof?tree_size={s}", index, head.get("tree_size").asLong())
                    .exchange(), 200).get("data");
            assertThat(proof.get("leaf_index").asLong()).isEqualTo(position(index) - 1);
            Path line = write(scratch, "event.json", exportLine(started, index));
            Path proofFile = write(scratch, "proof.json", proof);
            assertThat(PythonRecipe.run("audit.md", "proofs", "inclusion", headFile.toString(), line.toString(), proofFile.toString()))
                    .as("the proof of the event at %d", index).isEqualTo("ok");
            assertThat(cli("prove", "--tree-head", headFile, "--event", line, "--proof", proofFile, "--jwks", jwks(scratch)))
                    .startsWith("0 ok: the event is in the signed tree, signed by a key of the JWKS");
        }

        JsonNode proof = body(owner.get("/api/v1/audit/events/{i}/proof?tree_size={s}", events.getFirst(),
                head.get("tree_size").asLong()).exchange(), 200).get("data");
        Path line = write(scratch, "event.json", exportLine(started, events.getFirst()));
        Path tampered = write(scratch, "proof.json", withFirstHashEdited(proof, "audit_path"));
        assertThat(PythonRecipe.run("audit.md", "proofs", "inclusion", headFile.toString(), line.toString(), tampered.toString()))
                .isEqualTo("MISMATCH");
        assertThat(cli("prove", "--tree-head", headFile, "--event", line, "--proof", tampered)).startsWith("1 MISMATCH: the event at global index");
        Path otherEvent = write(scratch, "proof.json", proof);
        Path otherLine = write(scratch, "event.json", exportLine(started, events.getLast()));
        assertThat(PythonRecipe.run("audit.md", "proofs", "inclusion", headFile.toString(), otherLine.toString(), otherEvent.toString()))
                .as("a proof of another event").isEqualTo("MISMATCH");
    }

    @Test
    void twoHeadsAThousandEventsApartAreConsistentUntilAStoredNodeBetweenThemIsEdited(@TempDir Path scratch) throws Exception {
        PlatformClient busy = new PlatformClient(http, createKey(Map.of("name", "a thousand events", "rate_limit_per_minute", 100_000)));
        String busyAgent = busy.createAgent(busy.runningInstance("linux"), "busy");
        checkpoints.checkpoint();
        JsonNode first = newestHead();
        long target = first.get("tree_size").asLong() + 1_000;
        List<String> tasks = Flux.range(0, 260).flatMap(n -> Mono.fromCallable(() -> busy.task(busyAgent, "event " + n))
                .subscribeOn(Schedulers.boundedElastic()), 8).collectList().block();
        await(() -> jdbc().queryForObject("SELECT max(position) FROM audit_event", Long.class), size -> size >= target,
                "a thousand more events chained after " + tasks.size() + " tasks");
        checkpoints.checkpoint();
        JsonNode second = newestHead();
        assertThat(second.get("tree_size").asLong()).isGreaterThanOrEqualTo(target);

        Path firstFile = write(scratch, "first.json", first);
        Path secondFile = write(scratch, "second.json", second);
        JsonNode proof = consistency(first, second);
        assertThat(PythonRecipe.run("audit.md", "proofs", "consistency", firstFile.toString(), secondFile.toString(),
                write(scratch, "proof.json", proof).toString())).isEqualTo("ok");
        assertThat(cli("verify-consistency", "--first", firstFile, "--second", secondFile, "--proof", scratch.resolve("proof.json"),
                "--jwks", jwks(scratch))).startsWith("0 ok: the second signed tree extends the first");

        // a node the proof reads, over events after the first head, edited by one bit
        long firstSize = first.get("tree_size").asLong();
        Map<String, Object> between = null;
        for (JsonNode hash : proof.get("consistency_path")) {
            for (Map<String, Object> node : jdbc().queryForList("SELECT level, node_index, hash FROM audit_tree_node WHERE hash = ?",
                    (Object) HexFormat.of().parseHex(hash.asString()))) {
                if (((Number) node.get("node_index")).longValue() << ((Number) node.get("level")).intValue() >= firstSize) {
                    between = node;
                }
            }
        }
        assertThat(between).as("a node of the proof over events after the first head").isNotNull();
        byte[] original = (byte[]) between.get("hash");
        byte[] edited = original.clone();
        edited[original.length - 1] ^= 0x01;
        jdbc().update("UPDATE audit_tree_node SET hash = ? WHERE level = ? AND node_index = ?", edited, between.get("level"),
                between.get("node_index"));
        try {
            assertThat(PythonRecipe.run("audit.md", "proofs", "consistency", firstFile.toString(), secondFile.toString(),
                    write(scratch, "proof.json", consistency(first, second)).toString())).isEqualTo("MISMATCH");
            assertThat(cli("verify-consistency", "--first", firstFile, "--second", secondFile, "--proof", scratch.resolve("proof.json")))
                    .startsWith("1 MISMATCH: the tree of ");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            List<String> args = new ArrayList<>(List.of("verify"));
            args.addAll(cliSettings());
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            assertThat(AuditCommand.run(args.toArray(String[]::new), print, print)).isEqualTo(1);
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("the Merkle tree's node at level " + between.get("level")
                    + ", index " + between.get("node_index") + " ");
        } finally {
            jdbc().update("UPDATE audit_tree_node SET hash = ? WHERE level = ? AND node_index = ?", original, between.get("level"),
                    between.get("node_index"));
        }
        assertThat(PythonRecipe.run("audit.md", "proofs", "consistency", firstFile.toString(), secondFile.toString(),
                write(scratch, "proof.json", consistency(first, second)).toString())).isEqualTo("ok");
    }

    @Test
    void anotherOwnersEventIs404AndTheParametersAreChecked() {
        PlatformClient other = stranger();
        String otherAgent = other.createAgent(other.runningInstance("linux"), "not yours");
        String otherTask = other.task(otherAgent, "mine");
        other.awaitTask(otherAgent, otherTask, "completed");
        long theirs = chained(otherTask, 4).getFirst();
        String task = owner.task(agent, "mine too");
        owner.awaitTask(agent, task, "completed");
        long mine = chained(task, 4).getFirst();
        long size = jdbc().queryForObject("SELECT max(node_index) + 1 FROM audit_tree_node WHERE level = 0", Long.class);

        assertError(owner.get("/api/v1/audit/events/{i}/proof?tree_size={s}", theirs, size).exchange(), 404, "not_found", "");
        assertThat(body(other.get("/api/v1/audit/events/{i}/proof?tree_size={s}", theirs, size).exchange(), 200)
                .at("/data/global_index").asLong()).isEqualTo(theirs);
        assertError(owner.get("/api/v1/audit/events/{i}/proof", mine).exchange(), 400, "missing_param", "tree_size");
        assertError(owner.get("/api/v1/audit/events/{i}/proof?tree_size=many", mine).exchange(), 400, "invalid_param", "tree_size");
        assertError(owner.get("/api/v1/audit/events/{i}/proof?tree_size={s}", mine, position(mine) - 1).exchange(), 400, "invalid_param",
                "tree_size");
        assertError(owner.get("/api/v1/audit/events/{i}/proof?tree_size={s}", mine, Long.MAX_VALUE).exchange(), 400, "invalid_param",
                "tree_size");
        assertError(owner.get("/api/v1/audit/events/-1/proof?tree_size=1").exchange(), 400, "invalid_param", "index");
        assertError(owner.get("/api/v1/audit/consistency?second=2").exchange(), 400, "missing_param", "first");
        assertError(owner.get("/api/v1/audit/consistency?first=0&second=2").exchange(), 400, "invalid_param", "first");
        assertError(owner.get("/api/v1/audit/consistency?first=3&second=2").exchange(), 400, "invalid_param", "second");
        assertError(owner.get("/api/v1/audit/consistency?first=1&second={s}", Long.MAX_VALUE).exchange(), 400, "invalid_param", "second");
        assertThat(body(owner.get("/api/v1/audit/consistency?first={s}&second={s}", size, size).exchange(), 200)
                .at("/data/consistency_path")).isEmpty();
    }

    /** {@code audit <args>} offline, as an auditor runs it: its exit code and what it printed. */
    private static String cli(Object... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = AuditCommand.run(Arrays.stream(args).map(Object::toString).toArray(String[]::new), print, print);
        return exit + " " + out.toString(StandardCharsets.UTF_8);
    }

    private Path jwks(Path dir) throws Exception {
        Path file = dir.resolve("jwks.json");
        Files.writeString(file, http.get().uri("/.well-known/jwks.json").exchange().expectStatus().isOk().expectBody(String.class)
                .returnResult().getResponseBody(), StandardCharsets.UTF_8);
        return file;
    }

    /** The global indexes of the resource's events once {@code count} of them are chained, in chain order. */
    private List<Long> chained(String resource, int count) {
        return await(() -> jdbc().queryForList("SELECT a.global_index FROM audit_event a JOIN domain_event_entry e"
                + " ON e.global_index = a.global_index WHERE e.aggregate_identifier = ? ORDER BY a.position", Long.class, resource),
                found -> found.size() >= count, count + " events of " + resource + " chained");
    }

    private long position(long globalIndex) {
        return jdbc().queryForObject("SELECT position FROM audit_event WHERE global_index = ?", Long.class, globalIndex);
    }

    private JsonNode newestHead() {
        JsonNode heads = body(owner.get("/api/v1/audit/tree-heads?limit=1").exchange(), 200).get("data");
        assertThat(heads.get("tree_heads")).hasSize(1);
        return heads.get("tree_heads").get(0);
    }

    private JsonNode consistency(JsonNode first, JsonNode second) {
        return body(owner.get("/api/v1/audit/consistency?first={f}&second={s}", first.get("tree_size").asLong(),
                second.get("tree_size").asLong()).exchange(), 200).get("data");
    }

    private void verifiesWithTheJwks(JsonNode head) throws Exception {
        SignedJWT jws = SignedJWT.parse(head.get("jws").asString());
        String jwks = http.get().uri("/.well-known/jwks.json").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        RSAKey key = (RSAKey) JWKSet.parse(jwks).getKeyByKeyId(jws.getHeader().getKeyID());
        assertThat(jws.verify(new RSASSAVerifier(key))).isTrue();
        assertThat(jws.getJWTClaimsSet().getLongClaim("tree_size")).isEqualTo(head.get("tree_size").asLong());
        assertThat(jws.getJWTClaimsSet().getStringClaim("root_hash")).isEqualTo(head.get("root_hash").asString());
    }

    /** The owner's export line of the event at {@code globalIndex}. */
    private JsonNode exportLine(Instant since, long globalIndex) {
        String export = owner.get("/api/v1/audit/export?since={s}", since.toString()).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        return export.lines().map(JSON::readTree).filter(line -> line.at("/stored/global_index").asLong() == globalIndex)
                .findFirst().orElseThrow(() -> new AssertionError("no export line for global index " + globalIndex));
    }

    private static JsonNode withFirstHashEdited(JsonNode proof, String field) {
        Map<String, Object> edited = JSON.convertValue(proof, Map.class);
        @SuppressWarnings("unchecked")
        List<String> hashes = new ArrayList<>((List<String>) edited.get(field));
        char last = hashes.getFirst().charAt(0);
        hashes.set(0, (last == '0' ? '1' : '0') + hashes.getFirst().substring(1));
        edited.put(field, hashes);
        return JSON.valueToTree(edited);
    }

    private static Path write(Path dir, String name, JsonNode json) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, JSON.writeValueAsString(json), StandardCharsets.UTF_8);
        return file;
    }
}

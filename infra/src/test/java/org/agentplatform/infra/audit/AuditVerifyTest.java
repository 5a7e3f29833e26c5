package org.agentplatform.infra.audit;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.agentplatform.infra.cli.AuditCommand;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.PythonRecipe;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/**
 * {@code audit verify} against the real store: it passes on an untouched store, and names exactly the event that was
 * changed by one byte, deleted, or swapped with its neighbour (each edit undone afterwards); and an export re-checks
 * with the Python recipe of docs/audit.md as with the command, both naming an edited line's event.
 */
class AuditVerifyTest extends ApiTest {

    @Autowired
    private AuditCheckpoints checkpoints;
    @Autowired
    private DataSource dataSource;
    @Autowired
    private EventProcessingConfiguration processing;

    private PlatformClient owner;
    private List<Long> indexes;
    private Instant started;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @BeforeEach
    void aChainedTask() {
        owner = stranger(); // its own owner: the export holds only this test's events, whatever ran before
        started = Instant.now().minusSeconds(1);
        String agent = owner.createAgent(owner.runningInstance("linux"), "verified");
        String task = owner.task(agent, "chain me");
        owner.awaitTask(agent, task, "completed");
        indexes = await(() -> jdbc().queryForList("SELECT a.global_index FROM audit_event a JOIN domain_event_entry e"
                + " ON e.global_index = a.global_index WHERE e.aggregate_identifier = ? ORDER BY a.position", Long.class, task),
                chained -> chained.size() == 4, "the task's events in the chain (created, handed over, begun, completed)");
        checkpoints.checkpoint();
    }

    @Test
    void anUntouchedStoreVerifies() {
        assertThat(verify()).as(output()).isZero();
        assertThat(output()).startsWith("ok: ");
    }

    @Test
    void oneChangedByteIsFoundAtItsEvent() {
        long changed = indexes.get(1);
        byte[] original = jdbc().queryForObject("SELECT payload FROM domain_event_entry WHERE global_index = ?", byte[].class, changed);
        byte[] edited = original.clone();
        edited[edited.length / 2] ^= 0x01;
        jdbc().update("UPDATE domain_event_entry SET payload = ? WHERE global_index = ?", edited, changed);
        try {
            assertThat(verify()).isEqualTo(1);
            assertThat(output()).contains("event at global index " + changed + " ").contains("does not match its link");
        } finally {
            jdbc().update("UPDATE domain_event_entry SET payload = ? WHERE global_index = ?", original, changed);
        }
        out.reset();
        assertThat(verify()).as(output()).isZero();
    }

    @Test
    void aDeletedEventIsFoundAtItsPlace() {
        long deleted = indexes.get(1);
        Map<String, Object> row = jdbc().queryForMap("SELECT * FROM domain_event_entry WHERE global_index = ?", deleted);
        jdbc().update("DELETE FROM domain_event_entry WHERE global_index = ?", deleted);
        try {
            assertThat(verify()).isEqualTo(1);
            assertThat(output()).contains("event at global index " + deleted + " ").contains("missing from the event store");
        } finally {
            jdbc().update("INSERT INTO domain_event_entry (global_index, aggregate_identifier, sequence_number, type, event_identifier,"
                    + " meta_data, payload, payload_revision, payload_type, time_stamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row.get("global_index"), row.get("aggregate_identifier"), row.get("sequence_number"), row.get("type"),
                    row.get("event_identifier"), row.get("meta_data"), row.get("payload"), row.get("payload_revision"),
                    row.get("payload_type"), row.get("time_stamp"));
        }
        out.reset();
        assertThat(verify()).as(output()).isZero();
    }

    @Test
    void twoSwappedEventsAreFoundAtTheFirst() {
        long first = indexes.get(1);
        long second = indexes.get(2);
        swap(first, second);
        try {
            assertThat(verify()).isEqualTo(1);
            assertThat(output()).contains("event at global index " + first + " ").contains("does not match its link");
        } finally {
            swap(first, second);
        }
        out.reset();
        assertThat(verify()).as(output()).isZero();
    }

    @Test
    void anEditedNodeOfTheTreeIsNamed() {
        long leaf = jdbc().queryForObject("SELECT position - 1 FROM audit_event WHERE global_index = ?", Long.class, indexes.get(1));
        long parent = leaf / 2;
        byte[] original = jdbc().queryForObject("SELECT hash FROM audit_tree_node WHERE level = 1 AND node_index = ?", byte[].class, parent);
        byte[] edited = original.clone();
        edited[0] ^= 0x01;
        jdbc().update("UPDATE audit_tree_node SET hash = ? WHERE level = 1 AND node_index = ?", edited, parent);
        try {
            assertThat(verify()).isEqualTo(1);
            assertThat(output()).contains("the Merkle tree's node at level 1, index " + parent + " ").contains("not the hash of its events");
        } finally {
            jdbc().update("UPDATE audit_tree_node SET hash = ? WHERE level = 1 AND node_index = ?", original, parent);
        }
        out.reset();
        assertThat(verify()).as(output()).isZero();
    }

    @Test
    void aStoreChainedBeforeTheTreeGetsItsLeavesInTheNextBatch() throws Exception {
        List<Map<String, Object>> tree = jdbc().queryForList("SELECT level, node_index, hash FROM audit_tree_node ORDER BY level, node_index");
        long size = jdbc().queryForObject("SELECT max(position) FROM audit_event", Long.class);
        try (Connection upgrade = dataSource.getConnection()) {
            // as the migration leaves a store chained before it: no tree (the chain's batches wait for the lock, then see none)
            upgrade.setAutoCommit(false);
            try (Statement statement = upgrade.createStatement()) {
                statement.execute("LOCK TABLE audit_tree_node IN ACCESS EXCLUSIVE MODE");
                statement.execute("DELETE FROM audit_tree_node");
            }
            upgrade.commit();
        }
        String agent = owner.createAgent(owner.runningInstance("linux"), "after the upgrade");
        owner.awaitTask(agent, owner.task(agent, "grow the tree"), "completed");
        await(() -> jdbc().queryForObject("SELECT count(*) FROM audit_tree_node WHERE level = 0 AND node_index < ?", Long.class, size),
                leaves -> leaves == size, "the leaves of the " + size + " events chained before the tree");
        Map<String, String> rebuilt = new HashMap<>();
        jdbc().query("SELECT level, node_index, hash FROM audit_tree_node", row -> {
            rebuilt.put(row.getInt("level") + "/" + row.getLong("node_index"), HexFormat.of().formatHex(row.getBytes("hash")));
        });
        for (Map<String, Object> node : tree) {
            assertThat(rebuilt.get(node.get("level") + "/" + node.get("node_index"))).as("node %s", node)
                    .isEqualTo(HexFormat.of().formatHex((byte[]) node.get("hash")));
        }
        checkpoints.checkpoint();
        assertThat(verify()).as(output()).isZero();
    }

    @Test
    void anEventStoredLateIntoAGapTheChainStillAwaitsIsNotCalledLeftOut() throws Exception {
        StreamingEventProcessor chain = processing.eventProcessor(AuditChain.GROUP, StreamingEventProcessor.class).orElseThrow();
        long late;
        try (Connection held = dataSource.getConnection()) {
            // an event stored by a transaction that commits after later events were chained, as under load: until then its
            // global index is a gap in the chain's token
            held.setAutoCommit(false);
            late = copyOfAControlAction(held, null);
            String agent = owner.createAgent(owner.runningInstance("linux"), "chained past it");
            String task = owner.task(agent, "chained past the late one");
            owner.awaitTask(agent, task, "completed");
            await(() -> jdbc().queryForObject("SELECT count(*) FROM audit_event a JOIN domain_event_entry e ON e.global_index"
                    + " = a.global_index WHERE e.aggregate_identifier = ? AND a.global_index > ?", Long.class, task, late),
                    chained -> chained == 4, "the task's later events chained");
            chain.shutdownAsync().join();
            held.commit();
        }
        try {
            assertThat(jdbc().queryForObject("SELECT count(*) FROM audit_event WHERE global_index = ?", Long.class, late)).isZero();
            assertThat(verify()).as("stored, not chained yet: the chain still awaits it; %s", output()).isZero();
        } finally {
            chain.start();
        }
        await(() -> jdbc().queryForObject("SELECT count(*) FROM audit_event WHERE global_index = ?", Long.class, late),
                chained -> chained == 1, "the late event chained once its processor runs");
        out.reset();
        assertThat(verify()).as(output()).isZero();
    }

    @Test
    void anEventInsertedWhereTheChainHasPassedIsNamed() throws Exception {
        long inserted;
        try (Connection connection = dataSource.getConnection()) {
            // below every index the store gave out: the chain's processor went past it long ago
            inserted = copyOfAControlAction(connection, -7L);
        }
        try {
            assertThat(verify()).isEqualTo(1);
            assertThat(output()).contains("event at global index " + inserted + " is in the event store but not in the chain");
        } finally {
            jdbc().update("DELETE FROM domain_event_entry WHERE global_index = ?", inserted);
        }
        out.reset();
        assertThat(verify()).as(output()).isZero();
    }

    @Test
    void anExportVerifiesWithThePythonRecipeAndTheCommandAndAnEditedLineIsNamed(@TempDir Path scratch) throws Exception {
        byte[] export = owner.get("/api/v1/audit/export?since={since}", started.toString()).exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody();
        Path file = scratch.resolve("audit-export.ndjson");
        Files.write(file, export);
        assertThat(python(file)).isEqualTo("ok");
        assertThat(AuditCommand.run(new String[] {"verify", "--export", file.toString()}, print(), print())).as(output()).isZero();

        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        int edited = lines.size() / 2;
        Matcher index = Pattern.compile("\"stored\":\\{\"global_index\":(\\d+)").matcher(lines.get(edited));
        assertThat(index.find()).isTrue();
        // the copy says the event happened at another time
        lines.set(edited, lines.get(edited).replaceFirst("\"time_stamp\":\"(\\d)", "\"time_stamp\":\"9"));
        Files.write(file, lines, StandardCharsets.UTF_8);
        assertThat(python(file)).startsWith("MISMATCH at global index " + index.group(1) + " ");
        out.reset();
        assertThat(AuditCommand.run(new String[] {"verify", "--export", file.toString()}, print(), print())).isEqualTo(1);
        assertThat(output()).contains("event at global index " + index.group(1) + " ");
    }

    /**
     * A copy of the owner's control action (an event only the audit chain takes up) stored through {@code connection}, at
     * {@code index} or the store's next one; answers its global index.
     */
    private long copyOfAControlAction(Connection connection, Long index) throws Exception {
        owner.post("/api/v1/instances/{i}/computer/move", owner.runningInstance("linux")).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("x", 10, "y", 10)).exchange().expectStatus().isOk();
        try (PreparedStatement copy = connection.prepareStatement("INSERT INTO domain_event_entry (" + (index == null ? "" : "global_index, ")
                + "aggregate_identifier, sequence_number, type, event_identifier, meta_data, payload, payload_revision, payload_type,"
                + " time_stamp) SELECT " + (index == null ? "" : index + ", ") + "id, 0, NULL, id, e.meta_data, e.payload,"
                + " e.payload_revision, e.payload_type, e.time_stamp FROM (SELECT * FROM domain_event_entry WHERE payload_type LIKE"
                + " '%ControlActionPerformed' ORDER BY global_index DESC LIMIT 1) e, (SELECT gen_random_uuid()::text AS id) copy"
                + " RETURNING global_index")) {
            try (ResultSet row = copy.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getLong(1);
            }
        }
    }

    /** Swaps the global indexes of two events, as if they had been stored in the other order. */
    private void swap(long first, long second) {
        jdbc().update("UPDATE domain_event_entry SET global_index = -1 WHERE global_index = ?", first);
        jdbc().update("UPDATE domain_event_entry SET global_index = ? WHERE global_index = ?", first, second);
        jdbc().update("UPDATE domain_event_entry SET global_index = ? WHERE global_index = -1", second);
    }

    private int verify() {
        List<String> args = new ArrayList<>(List.of("verify"));
        args.addAll(cliSettings());
        return AuditCommand.run(args.toArray(String[]::new), print(), print());
    }

    private PrintStream print() {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Runs the chain's recipe of docs/audit.md on the export: its last line of output. */
    private static String python(Path export) throws Exception {
        return PythonRecipe.run("audit.md", "chain", export.toString());
    }
}

package org.agentplatform.infra.audit;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentplatform.infra.cli.AuditCommand;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@code audit verify} against the real store: it passes on an untouched store, and names exactly the event that was
 * changed by one byte, deleted, or swapped with its neighbour (each edit undone afterwards); and an export re-checks
 * with the Python recipe of docs/audit.md as with the command, both naming an edited line's event.
 */
class AuditVerifyTest extends ApiTest {

    @Autowired
    private AuditCheckpoints checkpoints;

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

    /** Runs the recipe of docs/audit.md on the export: its last line of output. */
    private static String python(Path export) throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "audit.md"));
        Matcher recipe = Pattern.compile("```python\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        assertThat(recipe.find()).as("the recipe in docs/audit.md").isTrue();
        Process python = new ProcessBuilder("python3", "-c", recipe.group(1), export.toString()).redirectErrorStream(true).start();
        assertThat(python.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return output.lines().reduce((a, b) -> b).orElse("");
    }
}

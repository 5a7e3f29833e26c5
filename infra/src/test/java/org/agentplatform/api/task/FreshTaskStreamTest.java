package org.agentplatform.api.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.query.SqlTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;

/**
 * A stream opened on a task just created starts from the task's events as the node's reader holds them, before the task
 * projection has committed them, with the very frames the read model shows later (ids, kinds, data), and goes on from the
 * read model without losing or repeating a frame.
 */
class FreshTaskStreamTest extends ApiTest {

    private static final long HOLD = 4_242_001;

    private PlatformClient owner;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        agent = owner.createAgent(owner.runningInstance("linux"), "fresh");
    }

    @Test
    void theFirstFramesComeFromTheEventsBeforeTheProjectionCommitsThemAndEqualItsRows() throws Exception {
        String marker = "held-" + UUID.randomUUID();
        // the projection's insert of this task's first rows waits for a lock the test holds (any task's: its text is sealed,
        // so the row cannot be told by its text; no other task is created meanwhile)
        jdbc().execute("CREATE FUNCTION hold_fresh_rows() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF NEW.kind = 'user_message' THEN PERFORM pg_advisory_xact_lock(" + HOLD + "); END IF;"
                + " RETURN NEW; END $$");
        jdbc().execute("CREATE TRIGGER hold_fresh_rows BEFORE INSERT ON channel_message FOR EACH ROW EXECUTE FUNCTION hold_fresh_rows()");
        BlockingQueue<ServerSentEvent<String>> frames = new LinkedBlockingQueue<>();
        Disposable stream = null;
        List<ServerSentEvent<String>> first;
        try (Connection holder = jdbc().getDataSource().getConnection()) {
            try (Statement lock = holder.createStatement()) {
                lock.execute("SELECT pg_advisory_lock(" + HOLD + ")");
            }
            try {
                String task = owner.task(agent, marker + "\n/echo deltas=2");
                stream = owner.get("/api/v1/agents/{a}/tasks/{t}/events", agent, task).accept(MediaType.TEXT_EVENT_STREAM).exchange()
                        .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
                        })
                        .getResponseBody()
                        .filter(event -> event.event() != null)
                        .subscribe(frames::add);
                // the creation's rows (and usually the start's, when the reader held it already)
                first = take(frames, 2);
                assertThat(first).extracting(ServerSentEvent::event).containsExactly("user_message", "task_status");
                assertThat(PlatformClient.data(first.get(1)).get("status").asString()).isEqualTo("queued");
                assertThat(jdbc().queryForObject("SELECT count(*) FROM task_view WHERE id = ?::uuid", Long.class, task))
                        .as("the projection has not committed the task yet").isZero();
            } finally {
                try (Statement unlock = holder.createStatement()) {
                    unlock.execute("SELECT pg_advisory_unlock(" + HOLD + ")");
                }
            }
            List<ServerSentEvent<String>> all = new ArrayList<>(first);
            ServerSentEvent<String> next;
            do {
                next = frames.poll(30, TimeUnit.SECONDS);
                assertThat(next).as("the stream goes on to done").isNotNull();
                all.add(next);
            } while (!"done".equals(next.event()));
            String task = PlatformClient.data(all.getFirst()).get("task_id").asString();
            // the same stream from the read model (a cursor before every row)
            List<ServerSentEvent<String>> projected = owner.taskEvents(agent, task, "0", 100);
            assertThat(all).extracting(ServerSentEvent::event).containsExactly("user_message", "task_status", "task_status",
                    "agent_reply_delta", "agent_reply_delta", "agent_message", "task_status", "done");
            assertThat(all).extracting(ServerSentEvent::id).isEqualTo(projected.stream().map(ServerSentEvent::id).toList());
            assertThat(all).extracting(ServerSentEvent::data).isEqualTo(projected.stream().map(ServerSentEvent::data).toList());
        } finally {
            if (stream != null) {
                stream.dispose();
            }
            jdbc().execute("DROP TRIGGER IF EXISTS hold_fresh_rows ON channel_message");
            jdbc().execute("DROP FUNCTION IF EXISTS hold_fresh_rows()");
        }
    }

    @Test
    void aTimestampReadBackIsTheInstantAsStored() {
        for (Instant instant : List.of(Instant.parse("2026-11-25T10:00:00.123456499Z"), Instant.parse("2026-11-25T10:00:00.123456500Z"),
                Instant.parse("2026-11-25T10:00:00.999999500Z"), Instant.parse("2026-11-25T10:00:00.000000001Z"))) {
            OffsetDateTime stored = jdbc().queryForObject("SELECT ?::timestamptz", OffsetDateTime.class, SqlTime.of(instant));
            assertThat(stored.toInstant()).as("%s", instant).isEqualTo(SqlTime.asStored(instant));
        }
    }

    private static List<ServerSentEvent<String>> take(BlockingQueue<ServerSentEvent<String>> frames, int count) throws InterruptedException {
        List<ServerSentEvent<String>> taken = new ArrayList<>();
        while (taken.size() < count) {
            ServerSentEvent<String> frame = frames.poll(30, TimeUnit.SECONDS);
            assertThat(frame).as("frame %d of the stream", taken.size() + 1).isNotNull();
            taken.add(frame);
        }
        return taken;
    }
}

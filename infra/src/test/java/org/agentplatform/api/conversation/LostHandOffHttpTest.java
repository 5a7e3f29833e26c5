package org.agentplatform.api.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.agentplatform.command.conversation.ConversationDispatcher;
import org.agentplatform.infra.eventstore.StoredTokens;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/**
 * A turn whose hand-off to the runtime is lost (as in a crash between the dispatcher's checkpoint and the hand-off; here
 * the runtime's record of it fails) is handed over again from the event store's truth, while the conversation's read
 * model is held back the whole time (its row locked, as a backlog or a lost update would leave it): the turn is
 * answered anyway, and the read model shows it once it may.
 */
class LostHandOffHttpTest extends ApiTest {

    private static final String REFUSE = "lost_hand_off_test";

    @Autowired
    private DataSource dataSource;

    @AfterEach
    void removeTheFault() {
        jdbc().execute("DROP TRIGGER IF EXISTS " + REFUSE + " ON local_turn");
        jdbc().execute("DROP FUNCTION IF EXISTS " + REFUSE + "()");
    }

    @Test
    void aStartedTurnTheRuntimeNeverReceivedIsHandedOverAgainFromTheStoreWhileTheViewLags() throws Exception {
        PlatformClient owner = platform();
        String agent = owner.createAgent(owner.runningInstance("linux"), "recovered");
        String context = "lost-" + UUID.randomUUID();
        String conversation = PlatformClient.body(owner.post("/api/v1/agents/{a}/conversations", agent)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("context_id", context)).exchange(), 201)
                .at("/data/conversation_id").asString();
        jdbc().execute("CREATE FUNCTION " + REFUSE + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF NEW.context_id = '" + context + "' THEN RAISE EXCEPTION 'the hand-off is lost'; END IF; RETURN NEW; END $$");
        jdbc().execute("CREATE TRIGGER " + REFUSE + " BEFORE INSERT ON local_turn FOR EACH ROW EXECUTE FUNCTION " + REFUSE + "()");

        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT 1 FROM conversation_view WHERE id = ?::uuid FOR UPDATE")) {
                lock.setString(1, conversation);
                lock.executeQuery().close();
            }
            owner.say(agent, conversation, "are you there?");
            long started = PlatformClient.await(() -> startOf(conversation), index -> index > 0, "the turn's start stored");
            PlatformClient.await(() -> StoredTokens.progress(jdbc(), ConversationDispatcher.GROUP).passed(started), passed -> passed,
                    "the dispatcher past the start (its hand-off failed)");
            assertThat(jdbc().queryForObject("SELECT count(*) FROM local_turn WHERE channel_id = ?::uuid", Integer.class, conversation))
                    .as("the runtime never got the turn").isZero();
            removeTheFault();
            clock.advance(Duration.ofSeconds(5));
            PlatformClient.await(() -> endOf(conversation), ended -> ended > 0, "the turn answered, with the read model held back");
            assertThat(jdbc().queryForObject("SELECT turn FROM conversation_view WHERE id = ?::uuid", Integer.class, conversation))
                    .as("the read model still behind").isZero();
            holder.rollback();
        }
        owner.awaitTurn(agent, conversation, 1, "completed");
        assertThat(owner.conversationView(agent, conversation).get("text").asString()).isEqualTo("echo: are you there?");
    }

    private long startOf(String conversation) {
        return jdbc().queryForObject("SELECT COALESCE(max(global_index), 0) FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND payload_type LIKE '%TurnStarted'", Long.class, conversation);
    }

    private long endOf(String conversation) {
        return jdbc().queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND payload_type LIKE '%TurnEnded'", Long.class, conversation);
    }
}

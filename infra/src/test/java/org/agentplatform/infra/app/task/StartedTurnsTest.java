package org.agentplatform.infra.app.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.ConnectionCallback;

/** The check of turn starts reads the partial index of them, not the whole store (whose rows it would otherwise filter). */
class StartedTurnsTest extends ApiTest {

    @Test
    void theScanOfEachDispatchersStartsUsesTheirIndex() {
        for (List<String> types : StartedTurns.startTypes()) {
            String sql = StartedTurns.scan(types).replaceFirst("\\?", "0").replaceFirst("\\?", "9223372036854775807")
                    .replaceFirst("\\?", "500");
            // on one connection: a small test store would otherwise be read whole, which is cheaper at that size
            String plan = jdbc().execute((ConnectionCallback<String>) connection -> {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET enable_seqscan = off");
                    List<String> lines = new ArrayList<>();
                    try (ResultSet rows = statement.executeQuery("EXPLAIN " + sql)) {
                        while (rows.next()) {
                            lines.add(rows.getString(1));
                        }
                    }
                    statement.execute("RESET enable_seqscan");
                    return String.join("\n", lines);
                }
            });
            assertThat(plan).as(sql).contains("domain_event_turn_starts");
        }
    }
}

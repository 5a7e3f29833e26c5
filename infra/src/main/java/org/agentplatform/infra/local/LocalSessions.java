package org.agentplatform.infra.local;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.agentplatform.command.operation.RuntimeCall;
import org.springframework.jdbc.core.JdbcTemplate;

/** {@code session/*}: per-agent conversation session controls (mode, model, clearing, cancelling). */
final class LocalSessions {

    static final Set<String> MODES = Set.of("default", "plan", "auto", "ask");
    private static final String DEFAULT_SESSION = "default";

    private final JdbcTemplate jdbc;
    private final LocalAgents agents;
    private final Clock clock;

    LocalSessions(JdbcTemplate jdbc, LocalAgents agents, Clock clock) {
        this.jdbc = jdbc;
        this.agents = agents;
        this.clock = clock;
    }

    Object setMode(RuntimeCall call, Params params) {
        String mode = params.text("mode");
        if (!MODES.contains(mode)) {
            throw RuntimeRefusal.invalidParams("'mode' must be one of " + String.join(", ", MODES.stream().sorted().toList()));
        }
        return change(call, params, "mode = ?", mode);
    }

    Object setModel(RuntimeCall call, Params params) {
        return change(call, params, "model = ?", agents.requireModel(params.text("model")));
    }

    Object clear(RuntimeCall call, Params params) {
        return change(call, params, "cleared_at = ?", now());
    }

    Object cancel(RuntimeCall call, Params params) {
        Map<String, Object> session = change(call, params, "cancelled_at = ?", now());
        session.put("cancelled", false); // no turn runs on the local runtime between calls
        return session;
    }

    private Map<String, Object> change(RuntimeCall call, Params params, String assignment, Object value) {
        UUID instance = call.instanceId().value();
        UUID agent = params.id("agentId");
        agents.require(instance, agent);
        String session = params.optionalText("sessionId") == null ? DEFAULT_SESSION : params.text("sessionId", 128);
        jdbc.update("INSERT INTO local_session (instance_id, agent_id, session_id, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                instance, agent, session, now());
        jdbc.update("UPDATE local_session SET " + assignment + ", updated_at = ? WHERE instance_id = ? AND agent_id = ? AND session_id = ?",
                value, now(), instance, agent, session);
        return jdbc.queryForObject("SELECT mode, model, cleared_at, cancelled_at FROM local_session"
                + " WHERE instance_id = ? AND agent_id = ? AND session_id = ?", (row, index) -> {
                    Map<String, Object> view = new LinkedHashMap<>();
                    view.put("agentId", agent.toString());
                    view.put("sessionId", session);
                    view.put("mode", row.getString("mode"));
                    view.put("model", row.getString("model") == null ? agents.modelOf(instance, agent) : row.getString("model"));
                    OffsetDateTime cleared = row.getObject("cleared_at", OffsetDateTime.class);
                    view.put("clearedAt", cleared == null ? null : cleared.toInstant().toString());
                    return view;
                }, instance, agent, session);
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }
}

package org.agentplatform.infra.local;

import java.net.URI;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.command.operation.RuntimeCall;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code mcp/*}: the MCP servers of a runtime, reached by URL or started by command. Secret values
 * ({@code env}, {@code headers}) arrive as vault references and are only ever shown masked.
 */
final class LocalMcp {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String MASK = "***";

    private final JdbcTemplate jdbc;
    private final LocalAgents agents;
    private final Clock clock;

    LocalMcp(JdbcTemplate jdbc, LocalAgents agents, Clock clock) {
        this.jdbc = jdbc;
        this.agents = agents;
        this.clock = clock;
    }

    Object list(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        String agent = params.optionalText("agentId");
        List<Map<String, Object>> servers = jdbc.query("SELECT name FROM local_mcp_server WHERE instance_id = ?"
                        + (agent == null ? "" : " AND (agent_id IS NULL OR agent_id = ?::uuid)") + " ORDER BY name",
                (row, index) -> view(instance, row.getString("name")),
                agent == null ? new Object[] {instance} : new Object[] {instance, agent});
        return Map.of("servers", servers);
    }

    Object prepare(RuntimeCall call, Params params) {
        String name = params.text("name", 128);
        Target target = target(params);
        jdbc.update("UPDATE local_mcp_server SET prepared = TRUE, updated_at = ? WHERE instance_id = ? AND name = ?",
                now(), call.instanceId().value(), name);
        Map<String, Object> prepared = new LinkedHashMap<>();
        prepared.put("name", name);
        prepared.put("status", "ready");
        prepared.put("transport", target.transport());
        prepared.put("tools", List.of());
        return prepared;
    }

    Object set(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        String name = params.text("name", 128);
        UUID agent = params.optionalText("agentId") == null ? null : params.id("agentId");
        if (agent != null) {
            agents.require(instance, agent);
        }
        Target target = target(params);
        List<?> args = params.optionalList("args") == null ? List.of() : params.optionalList("args");
        Map<?, ?> env = params.optionalMap("env") == null ? Map.of() : params.optionalMap("env");
        Map<?, ?> headers = params.optionalMap("headers") == null ? Map.of() : params.optionalMap("headers");
        jdbc.update("INSERT INTO local_mcp_server (instance_id, name, agent_id, transport, target, args, env, headers, prepared, updated_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, FALSE, ?) ON CONFLICT (instance_id, name) DO UPDATE SET"
                        + " agent_id = EXCLUDED.agent_id, transport = EXCLUDED.transport, target = EXCLUDED.target, args = EXCLUDED.args,"
                        + " env = EXCLUDED.env, headers = EXCLUDED.headers, prepared = FALSE, updated_at = EXCLUDED.updated_at",
                instance, name, agent, target.transport(), target.value(), JSON.writeValueAsString(args),
                JSON.writeValueAsString(env), JSON.writeValueAsString(headers), now());
        return view(instance, name);
    }

    Object unset(RuntimeCall call, Params params) {
        String name = params.text("name", 128);
        if (jdbc.update("DELETE FROM local_mcp_server WHERE instance_id = ? AND name = ?", call.instanceId().value(), name) == 0) {
            throw RuntimeRefusal.notFound("MCP_SERVER_NOT_FOUND", "MCP server", name);
        }
        return Map.of("name", name, "removed", true);
    }

    private static Target target(Params params) {
        String url = params.optionalText("url");
        String command = params.optionalText("command");
        if ((url == null) == (command == null)) {
            throw RuntimeRefusal.invalidParams("give exactly one of 'url' or 'command'");
        }
        if (url != null) {
            URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException malformed) {
                throw RuntimeRefusal.invalidParams("'url' is not a URL");
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw RuntimeRefusal.invalidParams("'url' must be http or https");
            }
            return new Target("http", url);
        }
        return new Target("stdio", command);
    }

    private Map<String, Object> view(UUID instance, String name) {
        return jdbc.queryForObject("SELECT name, agent_id, transport, target, args, env, headers, prepared, updated_at"
                + " FROM local_mcp_server WHERE instance_id = ? AND name = ?", (row, index) -> {
                    Map<String, Object> view = new LinkedHashMap<>();
                    view.put("name", row.getString("name"));
                    view.put("agentId", row.getString("agent_id"));
                    view.put("transport", row.getString("transport"));
                    view.put("http".equals(row.getString("transport")) ? "url" : "command", row.getString("target"));
                    view.put("args", JSON.readValue(row.getString("args"), List.class));
                    view.put("env", masked(row.getString("env")));
                    view.put("headers", masked(row.getString("headers")));
                    view.put("prepared", row.getBoolean("prepared"));
                    return view;
                }, instance, name);
    }

    private static Map<String, String> masked(String json) {
        Map<String, String> masked = new LinkedHashMap<>();
        JSON.readValue(json, Map.class).keySet().forEach(key -> masked.put(String.valueOf(key), MASK));
        return masked;
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    private record Target(String transport, String value) {
    }
}

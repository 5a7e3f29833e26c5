package org.agentplatform.infra.local;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.command.operation.RuntimeCall;
import org.agentplatform.infra.adapter.model.ModelCatalog;
import org.agentplatform.kernel.agent.AgentId;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code agent/*}: the runtime's agents. An agent's id is derived from the creating operation, so the
 * platform agent projected from it carries the same id and a repeated create makes one agent.
 */
final class LocalAgents {

    /** The built-in templates {@code agent/applyTemplate} knows. */
    static final Map<String, Template> TEMPLATES = Map.of(
            "assistant", new Template("assistant", "You are a helpful assistant. Answer briefly and precisely."),
            "coder", new Template("coder", "You write, review and explain code. Prefer small, tested changes."),
            "researcher", new Template("researcher", "You research questions thoroughly and cite what you rely on."));

    record Template(String id, String instructions) {
    }

    private final JdbcTemplate jdbc;
    private final ModelCatalog models;
    private final Clock clock;

    LocalAgents(JdbcTemplate jdbc, ModelCatalog models, Clock clock) {
        this.jdbc = jdbc;
        this.models = models;
        this.clock = clock;
    }

    Object create(RuntimeCall call, Params params) {
        UUID agent = AgentId.derivedFrom("agent/create:" + call.operationId()).value();
        String name = params.optionalText("name");
        if (name == null) {
            name = "agent-" + agent.toString().substring(0, 8);
        } else if (name.isBlank() || name.length() > 128) {
            throw RuntimeRefusal.invalidParams("'name' must be 1 to 128 characters");
        }
        String model = params.optionalText("model") == null ? models.defaultModel() : requireModel(params.optionalText("model"));
        String instructions = params.optionalText("instructions");
        String templateId = params.optionalText("templateId");
        if (templateId != null) {
            instructions = template(templateId).instructions();
        }
        OffsetDateTime now = now();
        jdbc.update("INSERT INTO local_agent (instance_id, agent_id, name, model, instructions, template_id, created_at, updated_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                call.instanceId().value(), agent, name, model, instructions, templateId, now, now);
        return view(call.instanceId().value(), agent);
    }

    Object update(RuntimeCall call, Params params) {
        UUID agent = params.id("agentId");
        require(call.instanceId().value(), agent);
        String name = params.optionalText("name");
        if (name != null && (name.isBlank() || name.length() > 128)) {
            throw RuntimeRefusal.invalidParams("'name' must be 1 to 128 characters");
        }
        String model = params.optionalText("model") == null ? null : requireModel(params.optionalText("model"));
        jdbc.update("UPDATE local_agent SET name = COALESCE(?, name), model = COALESCE(?, model),"
                        + " instructions = COALESCE(?, instructions), updated_at = ? WHERE instance_id = ? AND agent_id = ?",
                name, model, params.optionalText("instructions"), now(), call.instanceId().value(), agent);
        return view(call.instanceId().value(), agent);
    }

    Object delete(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        UUID agent = params.id("agentId");
        require(instance, agent);
        for (String table : List.of("local_skill_file", "local_skill", "local_session")) {
            jdbc.update("DELETE FROM " + table + " WHERE instance_id = ? AND agent_id = ?", instance, agent);
        }
        jdbc.update("DELETE FROM local_cron WHERE instance_id = ? AND agent_id = ?", instance, agent);
        jdbc.update("DELETE FROM local_agent WHERE instance_id = ? AND agent_id = ?", instance, agent);
        return Map.of("agentId", agent.toString(), "deleted", true);
    }

    Object applyTemplate(RuntimeCall call, Params params) {
        UUID agent = params.id("agentId");
        require(call.instanceId().value(), agent);
        Template template = template(params.text("templateId"));
        jdbc.update("UPDATE local_agent SET template_id = ?, instructions = ?, updated_at = ? WHERE instance_id = ? AND agent_id = ?",
                template.id(), template.instructions(), now(), call.instanceId().value(), agent);
        return view(call.instanceId().value(), agent);
    }

    /** Refuses with {@code AGENT_NOT_FOUND} unless the agent exists on this runtime. */
    void require(UUID instance, UUID agent) {
        Integer found = jdbc.queryForObject("SELECT count(*) FROM local_agent WHERE instance_id = ? AND agent_id = ?",
                Integer.class, instance, agent);
        if (found == null || found == 0) {
            throw RuntimeRefusal.notFound("AGENT_NOT_FOUND", "Agent", agent.toString());
        }
    }

    String modelOf(UUID instance, UUID agent) {
        return jdbc.queryForObject("SELECT model FROM local_agent WHERE instance_id = ? AND agent_id = ?", String.class, instance, agent);
    }

    String requireModel(String model) {
        if (models.find(model).isEmpty()) {
            throw new RuntimeRefusal("MODEL_NOT_AVAILABLE", "Model " + model + " is not available on this runtime");
        }
        return model;
    }

    private Template template(String templateId) {
        Template template = TEMPLATES.get(templateId);
        if (template == null) {
            throw RuntimeRefusal.notFound("TEMPLATE_NOT_FOUND", "Template", templateId);
        }
        return template;
    }

    private Map<String, Object> view(UUID instance, UUID agent) {
        return jdbc.queryForObject("SELECT agent_id, name, model, instructions, template_id FROM local_agent"
                + " WHERE instance_id = ? AND agent_id = ?", (row, index) -> {
                    Map<String, Object> view = new LinkedHashMap<>();
                    view.put("agentId", row.getString("agent_id"));
                    view.put("name", row.getString("name"));
                    view.put("model", row.getString("model"));
                    view.put("instructions", row.getString("instructions"));
                    view.put("templateId", row.getString("template_id"));
                    return view;
                }, instance, agent);
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }
}

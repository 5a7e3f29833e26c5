package org.agentplatform.kernel.operation;

import static org.agentplatform.kernel.operation.ParamSpec.JsonType.ARRAY;
import static org.agentplatform.kernel.operation.ParamSpec.JsonType.BOOLEAN;
import static org.agentplatform.kernel.operation.ParamSpec.JsonType.INTEGER;
import static org.agentplatform.kernel.operation.ParamSpec.JsonType.OBJECT;
import static org.agentplatform.kernel.operation.ParamSpec.JsonType.STRING;
import static org.agentplatform.kernel.operation.ParamSpec.optional;
import static org.agentplatform.kernel.operation.ParamSpec.required;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The runtime methods of the contract, each with its capability, its parameters, and whether the
 * platform reflects its effect (the platform agent and its skills): those pass through
 * {@code projection_pending}.
 */
public enum RuntimeMethod {
    AGENT_CREATE("agent/create", Capability.AGENTS_LIFECYCLE, true,
            optional("name", STRING), optional("model", STRING), optional("instructions", STRING), optional("templateId", STRING)),
    AGENT_UPDATE("agent/update", Capability.AGENTS_LIFECYCLE, true,
            required("agentId", STRING), optional("name", STRING), optional("model", STRING), optional("instructions", STRING)),
    AGENT_DELETE("agent/delete", Capability.AGENTS_LIFECYCLE, true, required("agentId", STRING)),
    AGENT_APPLY_TEMPLATE("agent/applyTemplate", Capability.AGENTS_LIFECYCLE, true,
            required("agentId", STRING), required("templateId", STRING)),
    SKILLS_LIST("skills/list", Capability.SKILLS, false, required("agentId", STRING)),
    SKILLS_INSTALL("skills/install", Capability.SKILLS, true,
            required("agentId", STRING), required("name", STRING), required("files", ARRAY), optional("version", STRING)),
    SKILLS_UNINSTALL("skills/uninstall", Capability.SKILLS, true, required("agentId", STRING), required("name", STRING)),
    SKILLS_UPDATE("skills/update", Capability.SKILLS, true,
            required("agentId", STRING), required("name", STRING), optional("enabled", BOOLEAN), optional("version", STRING),
            optional("files", ARRAY)),
    MODELS_LIST("models/list", Capability.MODELS, false, optional("agentId", STRING)),
    CRON_LIST("cron/list", Capability.CRON, false, optional("agentId", STRING)),
    CRON_STATUS("cron/status", Capability.CRON, false, required("cronId", STRING)),
    CRON_ADD("cron/add", Capability.CRON, false,
            required("agentId", STRING), required("schedule", STRING), required("prompt", STRING), optional("name", STRING),
            optional("enabled", BOOLEAN)),
    CRON_UPDATE("cron/update", Capability.CRON, false,
            required("cronId", STRING), optional("schedule", STRING), optional("prompt", STRING), optional("name", STRING),
            optional("enabled", BOOLEAN)),
    CRON_REMOVE("cron/remove", Capability.CRON, false, required("cronId", STRING)),
    CRON_RUN("cron/run", Capability.CRON, false, required("cronId", STRING)),
    CRON_RUNS("cron/runs", Capability.CRON, false, required("cronId", STRING), optional("limit", INTEGER)),
    MCP_LIST("mcp/list", Capability.MCP, false, optional("agentId", STRING)),
    MCP_PREPARE("mcp/prepare", Capability.MCP, false,
            required("name", STRING), optional("url", STRING), optional("command", STRING), optional("args", ARRAY)),
    MCP_SET("mcp/set", Capability.MCP, false,
            required("name", STRING), optional("agentId", STRING), optional("url", STRING), optional("command", STRING),
            optional("args", ARRAY), optional("env", OBJECT), optional("headers", OBJECT)),
    MCP_UNSET("mcp/unset", Capability.MCP, false, required("name", STRING)),
    SESSION_SET_MODE("session/set_mode", Capability.CONVERSATION_CONTROL, false,
            required("agentId", STRING), required("mode", STRING), optional("sessionId", STRING)),
    SESSION_CLEAR("session/clear", Capability.CONVERSATION_CONTROL, false,
            required("agentId", STRING), optional("sessionId", STRING)),
    SESSION_SET_MODEL("session/set_model", Capability.CONVERSATION_CONTROL, false,
            required("agentId", STRING), required("model", STRING), optional("sessionId", STRING)),
    SESSION_CANCEL("session/cancel", Capability.CONVERSATION_CONTROL, false,
            required("agentId", STRING), optional("sessionId", STRING));

    private final String wireName;
    private final Capability capability;
    private final boolean projected;
    private final List<ParamSpec> params;

    RuntimeMethod(String wireName, Capability capability, boolean projected, ParamSpec... params) {
        this.wireName = wireName;
        this.capability = capability;
        this.projected = projected;
        this.params = List.of(params);
    }

    /** The parameters the method takes; any other is refused. */
    public List<ParamSpec> params() {
        return params;
    }

    public String wireName() {
        return wireName;
    }

    public Capability capability() {
        return capability;
    }

    /** Whether a committed call is reflected on the platform (its operation passes through projection_pending). */
    public boolean isProjected() {
        return projected;
    }

    public static Optional<RuntimeMethod> fromWireName(String wireName) {
        return Arrays.stream(values()).filter(method -> method.wireName.equals(wireName)).findFirst();
    }
}

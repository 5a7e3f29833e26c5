package org.agentplatform.kernel.operation;

/** The capability family a runtime method belongs to. */
public enum Capability {
    AGENTS_LIFECYCLE("agents.lifecycle"),
    SKILLS("skills"),
    MODELS("models"),
    CRON("cron"),
    MCP("mcp"),
    CONVERSATION_CONTROL("conversation.control");

    private final String wireName;

    Capability(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}

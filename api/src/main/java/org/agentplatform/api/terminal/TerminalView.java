package org.agentplatform.api.terminal;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import org.agentplatform.query.terminal.TerminalRecord;
import org.jspecify.annotations.Nullable;

/** A terminal on the wire (its shell's bytes are only ever on its WebSocket). */
record TerminalView(
        @JsonProperty("terminal_id") String terminalId,
        @JsonProperty("instance_id") String instanceId,
        @JsonProperty("agent_id") @Nullable String agentId,
        @JsonProperty("conversation_id") @Nullable String conversationId,
        String status,
        boolean attached,
        int attachments,
        @JsonProperty("end_reason") @Nullable String endReason,
        @JsonProperty("exit_status") @Nullable Integer exitStatus,
        @JsonProperty("created_at") Instant createdAt,
        @JsonProperty("updated_at") Instant updatedAt,
        @JsonProperty("ended_at") @Nullable Instant endedAt) {

    static TerminalView of(TerminalRecord terminal) {
        return new TerminalView(terminal.id().toString(), terminal.instanceId().toString(),
                terminal.agentId() == null ? null : terminal.agentId().toString(),
                terminal.conversationId() == null ? null : terminal.conversationId().toString(),
                terminal.status(), terminal.attached(), terminal.attachments(), terminal.endReason(), terminal.exitStatus(),
                terminal.createdAt(), terminal.updatedAt(), terminal.endedAt());
    }
}

package org.agentplatform.command.turn;

import java.util.UUID;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationRef;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskRef;

/**
 * One turn for an agent's runtime: the caller's message to a task or a conversation (its {@code channel}: the
 * task's or the conversation's id, whose log the turn streams into), fenced by the runtime epoch it was started
 * at. {@code logWindow} is the global index of the event that started it: the turn's chunks take the log's
 * offsets after that event's rows. An {@code interactive} turn has a caller waiting for it (a synchronous invoke, a
 * conversation's message): a runtime takes it ahead of the others.
 */
public record AgentTurn(Kind kind, UUID channel, OwnerId ownerId, AgentId agentId, InstanceId instanceId, String contextId, int turn,
        long runtimeEpoch, long logWindow, TaskMessage message, boolean interactive) {

    /** What the turn belongs to; its outcome becomes that aggregate's command. */
    public enum Kind {
        TASK("task"),
        CONVERSATION("conversation");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Kind fromWireName(String wireName) {
            for (Kind kind : values()) {
                if (kind.wireName.equals(wireName)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("Not a turn kind: " + wireName);
        }
    }

    public static AgentTurn of(TaskRef task, int turn, long runtimeEpoch, long logWindow, TaskMessage message, boolean interactive) {
        return new AgentTurn(Kind.TASK, task.taskId().value(), task.ownerId(), task.agentId(), task.instanceId(), task.contextId(), turn,
                runtimeEpoch, logWindow, message, interactive);
    }

    public static AgentTurn of(ConversationRef conversation, int turn, long runtimeEpoch, long logWindow, TaskMessage message) {
        return new AgentTurn(Kind.CONVERSATION, conversation.conversationId().value(), conversation.ownerId(), conversation.agentId(),
                conversation.instanceId(), conversation.contextId(), turn, runtimeEpoch, logWindow, message, true);
    }
}

package org.agentplatform.api.task;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;
import org.agentplatform.api.channel.EntryView;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelReads;
import org.agentplatform.query.task.TaskRecord;
import org.jspecify.annotations.Nullable;

/**
 * The wire shape of a task ({@code TaskResponse}). {@code text} is the agent's latest message; {@code error}
 * says why a task ended badly; {@code offset} is the offset of its latest event (the inbox's cursor),
 * {@code latest_offset} the true maximum of its log. A single task read adds {@code history} (messages of
 * the newest 1000 log rows) and {@code truncated} (older rows were left out).
 */
record TaskView(
        @JsonProperty("task_id") String taskId,
        @JsonProperty("context_id") String contextId,
        @JsonProperty("agent_id") String agentId,
        String status,
        @JsonProperty("final") boolean isFinal,
        String origin,
        @Nullable String text,
        @JsonProperty("is_error") boolean isError,
        @Nullable ErrorView error,
        @JsonProperty("deadline_at") @Nullable Instant deadlineAt,
        long offset,
        @JsonProperty("latest_offset") long latestOffset,
        @JsonProperty("created_at") Instant createdAt,
        @JsonProperty("updated_at") Instant updatedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<EntryView> history,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean truncated) {

    /** The history a single task read shows: at most this many log rows are scanned. */
    static final int SCAN_CAP = 1000;

    record ErrorView(@Nullable String code, String message) {
    }

    /** A task just created whose snapshot is not readable yet: what the create itself knows, its instants as stored. */
    static TaskView accepted(TaskId task, String contextId, AgentId agent, TaskOrigin origin, Instant deadline, Instant now) {
        return new TaskView(task.toString(), contextId, agent.toString(), TaskStatus.QUEUED.wireName(), false, origin.wireName(), null,
                false, null, deadline, 0, 0, now, now, null, null);
    }

    /** The task for its owner: {@code open} opens the owner's sealed texts for the wire. */
    static TaskView of(TaskRecord task, UnaryOperator<String> open) {
        return of(task, null, open);
    }

    static TaskView of(TaskRecord task, ChannelReads.History history, UnaryOperator<String> open) {
        // agent_reply_error is only ever done.code (contract): here an in-band failure is is_error with the agent's text
        ErrorView error = TaskError.of(task)
                .map(failure -> new ErrorView(failure.isAgentReported() ? null : failure.code(), failure.message())).orElse(null);
        return new TaskView(task.id().toString(), task.contextId(), task.agentId().toString(), task.status().wireName(),
                task.status().isTerminal(), task.origin().wireName(), open.apply(task.text()), error != null, error, task.deadline(),
                task.changeOffset(), task.lastOffset(), task.createdAt(), task.updatedAt(),
                history == null ? null
                        : history.entries().stream().filter(entry -> entry.role() != null).map(entry -> entry(entry, open)).toList(),
                history == null ? null : history.truncated());
    }

    /** A row of a task's log; a status row is final when the task's status is terminal. */
    static EntryView entry(ChannelEntry entry, UnaryOperator<String> open) {
        return EntryView.of(entry, entry.status() == null ? null
                : TaskStatus.fromWireName(entry.status()).map(TaskStatus::isTerminal).orElse(false), open);
    }
}

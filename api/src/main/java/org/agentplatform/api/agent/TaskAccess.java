package org.agentplatform.api.agent;

import java.time.Duration;
import java.util.UUID;
import java.util.function.Function;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import reactor.core.publisher.Mono;

/**
 * A task is the caller's who created it, under the agent it was created for; anything else is 404
 * {@code agent_not_found}. A task created a moment ago is found too: its create answered before its
 * projection, so the read waits for it (briefly, woken by its commit), and past that reads it from the event
 * store, rather than answering 404 for a task it accepted.
 */
public final class TaskAccess {

    /** How long a read waits for the read model to show a task the store holds, before reading the store. */
    private static final Duration JUST_CREATED = Duration.ofSeconds(1);

    private TaskAccess() {
    }

    public static Mono<TaskRecord> owned(TaskReads tasks, AgentId agent, String taskId, OwnerId caller) {
        return owned(tasks::findAccepted, task -> task, agent, taskId, caller);
    }

    /** As above, {@code find} reading something that holds the task (waiting up to {@link #JUST_CREATED} for a task just created). */
    public static <T> Mono<T> owned(JustCreated<T> find, Function<T, TaskRecord> record, AgentId agent, String taskId, OwnerId caller) {
        TaskId id = parse(taskId);
        return find.find(id, JUST_CREATED)
                .filter(found -> {
                    TaskRecord task = record.apply(found);
                    return task.ownerId().equals(caller) && task.agentId().equals(agent);
                })
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.AGENT_NOT_FOUND, "No task " + taskId + " of agent " + agent)));
    }

    /** A read of a task that waits up to {@code wait} for one created a moment ago; empty for an unknown task. */
    @FunctionalInterface
    public interface JustCreated<T> {

        Mono<T> find(TaskId taskId, Duration wait);
    }

    private static TaskId parse(String taskId) {
        if (taskId.isBlank() || taskId.length() > PathIds.MAX_LENGTH) {
            throw ApiException.invalidParam("taskId", "'taskId' must be 1 to " + PathIds.MAX_LENGTH + " characters");
        }
        try {
            return new TaskId(UUID.fromString(taskId));
        } catch (IllegalArgumentException notATaskId) {
            throw new ApiException(ErrorCode.AGENT_NOT_FOUND, "No task " + taskId);
        }
    }
}

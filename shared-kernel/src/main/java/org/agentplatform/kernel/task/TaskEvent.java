package org.agentplatform.kernel.task;

import java.time.Instant;

/**
 * Events of the {@code Task} aggregate: one per status transition (each is a webhook callback and a
 * {@code task_status} stream event), each with the task's {@link TaskRef} and the status it leads to.
 */
public sealed interface TaskEvent {

    TaskRef task();

    TaskStatus status();

    default TaskId taskId() {
        return task().taskId();
    }

    /** @param runtimeEpoch the epoch its creator saw the instance serve at (start it there); null when unknown */
    record TaskCreated(TaskRef task, TaskMessage message, Instant deadline, TaskOrigin origin, Long runtimeEpoch) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.QUEUED;
        }
    }

    /**
     * Whether the event moves the task to another status: what a caller is told of (a webhook callback, a {@code task_status}
     * row). Every event does but a start that waits for a runtime worker: the task was queued and stays queued.
     */
    default boolean changesStatus() {
        return true;
    }

    /**
     * Turn 1 goes to the runtime with the task's first message. {@code origin} is the task's (null in events stored before
     * it was carried here: those were created through the tasks API or by cron, and their turns are not interactive).
     * {@code waits}: the turn waits for a runtime worker, and the task stays {@code queued} until one begins it
     * ({@link TaskTurnBegan}); null in events stored before the runtime told when it began a turn, which meant it ran.
     */
    record TaskStarted(TaskRef task, int turn, long runtimeEpoch, TaskMessage message, TaskOrigin origin, Boolean waits)
            implements TaskEvent {

        /** Whether a caller waits for the turn (a synchronous invoke): it goes ahead of other tasks' turns. */
        public boolean interactive() {
            return origin == TaskOrigin.INVOKE;
        }

        @Override
        public TaskStatus status() {
            return Boolean.TRUE.equals(waits) ? TaskStatus.QUEUED : TaskStatus.RUNNING;
        }

        @Override
        public boolean changesStatus() {
            return !Boolean.TRUE.equals(waits);
        }
    }

    /**
     * A runtime worker began the turn: the agent works on it. {@code window} is the global index of the event that handed
     * the turn over (its chunks take offsets in that window, after this event's row); {@code began}, when the worker began.
     */
    record TaskTurnBegan(TaskRef task, int turn, long window, Instant began) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.RUNNING;
        }
    }

    record TaskInputRequired(TaskRef task, int turn, TaskMessage prompt) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.INPUT_REQUIRED;
        }
    }

    record TaskAuthRequired(TaskRef task, int turn, TaskMessage prompt) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.AUTH_REQUIRED;
        }
    }

    /**
     * The caller answered; {@code turn} goes to the runtime with {@code message}. {@code waits}: the turn waits for a runtime
     * worker, the task is {@code queued} again until one begins it; null in events stored before, which meant it ran.
     */
    record TaskContinued(TaskRef task, int turn, TaskMessage message, Boolean waits) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return Boolean.TRUE.equals(waits) ? TaskStatus.QUEUED : TaskStatus.RUNNING;
        }
    }

    record TaskCompleted(TaskRef task, int turn, TaskMessage reply) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.COMPLETED;
        }
    }

    /** @param reply the agent's own text when it reported the failure; null otherwise */
    record TaskFailed(TaskRef task, int turn, TaskFailure failure, TaskMessage reply) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.FAILED;
        }
    }

    record TaskRejected(TaskRef task, int turn, String reason) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.REJECTED;
        }
    }

    /** @param previous the status the task was canceled from */
    record TaskCanceled(TaskRef task, TaskStatus previous, String reason) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.CANCELED;
        }
    }

    record TaskTimedOut(TaskRef task, TaskStatus previous, Instant deadline) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.TIMEOUT;
        }
    }
}

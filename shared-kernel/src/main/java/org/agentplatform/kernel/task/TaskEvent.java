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
     * Turn 1 goes to the runtime with the task's first message. {@code origin} is the task's (null in events stored before
     * it was carried here: those were created through the tasks API or by cron, and their turns are not interactive).
     */
    record TaskStarted(TaskRef task, int turn, long runtimeEpoch, TaskMessage message, TaskOrigin origin) implements TaskEvent {

        /** Whether a caller waits for the turn (a synchronous invoke): it goes ahead of other tasks' turns. */
        public boolean interactive() {
            return origin == TaskOrigin.INVOKE;
        }

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

    /** The caller answered; {@code turn} goes to the runtime with {@code message}. */
    record TaskContinued(TaskRef task, int turn, TaskMessage message) implements TaskEvent {

        @Override
        public TaskStatus status() {
            return TaskStatus.RUNNING;
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

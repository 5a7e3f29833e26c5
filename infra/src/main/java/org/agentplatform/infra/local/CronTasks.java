package org.agentplatform.infra.local;

import org.agentplatform.kernel.task.TaskCommand.CreateTask;

/** Where cron runs create their tasks: the platform's {@code CreateTask}, as any caller's task. */
@FunctionalInterface
public interface CronTasks {

    void create(CreateTask command);
}

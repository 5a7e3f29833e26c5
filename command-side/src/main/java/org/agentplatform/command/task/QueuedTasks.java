package org.agentplatform.command.task;

import java.util.List;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskId;

/** Port: the tasks of an instance whose first turn was not handed over yet (read from the task projection). */
public interface QueuedTasks {

    List<TaskId> queuedOn(InstanceId instance);
}

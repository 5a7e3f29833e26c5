package org.agentplatform.command.task;

import java.util.List;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskId;

/** Port: the tasks still queued on an instance (read from the task projection). */
public interface QueuedTasks {

    List<TaskId> queuedOn(InstanceId instance);
}

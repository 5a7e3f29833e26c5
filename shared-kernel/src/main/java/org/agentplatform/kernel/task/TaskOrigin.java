package org.agentplatform.kernel.task;

import java.util.Optional;

/** How a task came to be: created through the tasks API, by a synchronous invoke, or by a cron entry. */
public enum TaskOrigin {
    TASKS("tasks"),
    INVOKE("invoke"),
    CRON("cron");

    private final String wireName;

    TaskOrigin(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<TaskOrigin> fromWireName(String wireName) {
        for (TaskOrigin origin : values()) {
            if (origin.wireName.equals(wireName)) {
                return Optional.of(origin);
            }
        }
        return Optional.empty();
    }
}

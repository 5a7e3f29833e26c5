package org.agentplatform.api.quota;

/**
 * The bounds on what one owner may have waiting ({@link OwnerBacklog}).
 *
 * @param maxUnfinishedTasks         queued or running tasks (created through the tasks API or by cron) per owner
 * @param maxUnfinishedInvokes       queued or running synchronous invokes per owner
 * @param maxWaitingMessages         messages waiting behind a conversation's running turn, per conversation
 */
public record BacklogSettings(int maxUnfinishedTasks, int maxUnfinishedInvokes, int maxWaitingMessages) {

    public BacklogSettings {
        if (maxUnfinishedTasks < 1 || maxUnfinishedInvokes < 1 || maxWaitingMessages < 1) {
            throw new IllegalArgumentException("The backlog bounds must be 1 or more: " + maxUnfinishedTasks + ", " + maxUnfinishedInvokes
                    + ", " + maxWaitingMessages);
        }
    }
}

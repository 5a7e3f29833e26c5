package org.agentplatform.api.task;

import org.agentplatform.api.channel.ChannelStream;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.task.FreshTasks;
import org.agentplatform.query.task.TaskReads;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The task streams, on the channel stream. */
@Configuration(proxyBeanMethods = false)
class TaskConfiguration {

    @Bean
    TaskStream taskStream(TaskReads tasks, FreshTasks fresh, ChannelStream channelStream, PersonalContent content) {
        return new TaskStream(tasks, fresh, channelStream, content);
    }
}

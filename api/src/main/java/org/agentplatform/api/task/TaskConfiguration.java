package org.agentplatform.api.task;

import java.time.Duration;
import org.agentplatform.api.channel.ChannelStream;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.task.FreshTasks;
import org.agentplatform.query.task.TaskReads;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** The task streams, on the channel stream, and the inbox's stream. */
@Configuration(proxyBeanMethods = false)
class TaskConfiguration {

    @Bean
    TaskStream taskStream(TaskReads tasks, FreshTasks fresh, ChannelStream channelStream, PersonalContent content) {
        return new TaskStream(tasks, fresh, channelStream, content);
    }

    @Bean
    InboxStream inboxStream(TaskReads tasks, ChangeFeed feed, JsonMapper jsonMapper, PersonalContent content, OpenStreams openStreams) {
        return new InboxStream(tasks, feed, jsonMapper, content, openStreams, Duration.ofSeconds(15));
    }
}

package org.agentplatform.api.task;

import java.time.Duration;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.task.TaskReads;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** The task streams, woken by the change feed. */
@Configuration(proxyBeanMethods = false)
class TaskConfiguration {

    @Bean
    TaskStream taskStream(TaskReads tasks, ChangeFeed feed, JsonMapper jsonMapper, OpenStreams openStreams) {
        return new TaskStream(tasks, feed, jsonMapper, Duration.ofSeconds(15), openStreams);
    }
}

package org.agentplatform.api.task;

import java.time.Duration;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.task.TaskReads;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** The task streams and waits, each woken by the change feed and re-reading on a timer as a fallback. */
@Configuration(proxyBeanMethods = false)
class TaskConfiguration {

    @Bean
    TaskStream taskStream(TaskReads tasks, ChangeFeed feed, JsonMapper jsonMapper) {
        return new TaskStream(tasks, feed, jsonMapper, Duration.ofSeconds(2), Duration.ofSeconds(15));
    }

    @Bean
    TaskWaits taskWaits(TaskReads tasks, ChangeFeed feed) {
        return new TaskWaits(tasks, feed, Duration.ofSeconds(1));
    }
}

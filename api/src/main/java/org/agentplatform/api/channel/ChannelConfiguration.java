package org.agentplatform.api.channel;

import java.time.Duration;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.query.feed.ChangeFeed;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** The streams of task and conversation logs, woken by the change feed. */
@Configuration(proxyBeanMethods = false)
class ChannelConfiguration {

    @Bean
    ChannelStream channelStream(ChangeFeed feed, JsonMapper jsonMapper, OpenStreams openStreams) {
        return new ChannelStream(feed, jsonMapper, Duration.ofSeconds(15), openStreams);
    }
}

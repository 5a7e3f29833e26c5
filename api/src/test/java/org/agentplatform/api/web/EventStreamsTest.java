package org.agentplatform.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;

class EventStreamsTest {

    @Test
    void theIdIsWrittenAfterTheData() {
        assertThat(EventStreams.frame(ServerSentEvent.builder("{\"a\":1}").event("task_status").id("42").build()))
                .isEqualTo("event:task_status\ndata:{\"a\":1}\nid:42\n\n");
    }

    @Test
    void framesWithoutAnIdAndMultiLineDataAndComments() {
        assertThat(EventStreams.frame(ServerSentEvent.builder("one\ntwo").event("done").build()))
                .isEqualTo("event:done\ndata:one\ndata:two\n\n");
        assertThat(EventStreams.frame(ServerSentEvent.<String>builder().comment("keep-alive").build())).isEqualTo(":keep-alive\n\n");
    }
}

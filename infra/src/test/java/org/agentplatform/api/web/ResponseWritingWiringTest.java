package org.agentplatform.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import java.lang.reflect.Field;
import org.agentplatform.infra.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.codec.EncoderHttpMessageWriter;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.codec.json.JacksonJsonEncoder;
import org.springframework.security.web.server.WebFilterChainProxy;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.util.BufferRecycler;

/** What every response's path costs besides its own work: the JSON encoder's buffers, the logger's filters, security's wrappers. */
@PlatformTest
class ResponseWritingWiringTest {

    @Autowired
    ServerCodecConfigurer codecs;

    @Test
    void theResponsesJsonEncoderReusesItsBuffersOnAThread() {
        JacksonJsonEncoder encoder = codecs.getWriters().stream()
                .filter(EncoderHttpMessageWriter.class::isInstance)
                .map(writer -> ((EncoderHttpMessageWriter<?>) writer).getEncoder())
                .filter(JacksonJsonEncoder.class::isInstance)
                .map(JacksonJsonEncoder.class::cast)
                .findFirst().orElseThrow();
        TokenStreamFactory factory = encoder.getMapper().tokenStreamFactory();
        // the encoder takes a recycler per response and never returns it: only a per-thread pool hands the same one again
        BufferRecycler first = factory._getBufferRecycler();
        BufferRecycler second = factory._getBufferRecycler();
        assertThat(second).isSameAs(first);
    }

    @Autowired
    WebFilterChainProxy security;

    @Test
    void securityFiltersRunUnwrappedByObservations() throws Exception {
        Field decorator = WebFilterChainProxy.class.getDeclaredField("filterChainDecorator");
        decorator.setAccessible(true);
        assertThat(decorator.get(security)).isInstanceOf(WebFilterChainProxy.DefaultWebFilterChainDecorator.class);
    }

    @Test
    void loggerCallsRunNoTurboFilter() {
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        assertThat(logging.getTurboFilterList()).isEmpty();
    }
}

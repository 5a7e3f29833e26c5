package org.agentplatform.api.web;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;

/**
 * The answers of the SSE routes (tasks, conversations, operations). Each frame is written {@code event:}, then its
 * {@code data:} lines, then its {@code id:}: a client that adopts an id as soon as it reads it (like
 * {@code @microsoft/fetch-event-source}) would otherwise, when the connection drops mid-frame, resume after an event
 * it never got. A resume from at or past a finished stream's end is {@code 204 No Content}, which tells a standard
 * client to stop reconnecting.
 */
public final class EventStreams {

    private EventStreams() {
    }

    /** 200 {@code text/event-stream}: the events, framed as above. */
    public static ResponseEntity<Flux<DataBuffer>> of(Flux<ServerSentEvent<String>> events) {
        return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM)
                .body(events.map(event -> DefaultDataBufferFactory.sharedInstance.wrap(frame(event).getBytes(StandardCharsets.UTF_8))));
    }

    /** A comment frame every {@code heartbeat}: keeps proxies from closing a quiet stream, and tells a client it still lives. */
    public static Flux<ServerSentEvent<String>> keepAlive(Duration heartbeat) {
        return Flux.interval(heartbeat).map(tick -> ServerSentEvent.<String>builder().comment("keep-alive").build());
    }

    /** 204: nothing follows the cursor, and nothing ever will. */
    public static ResponseEntity<Flux<DataBuffer>> finished() {
        return ResponseEntity.noContent().build();
    }

    /** One frame's text: a comment, or {@code event:}, {@code data:} lines, {@code id:}, then the blank line. */
    static String frame(ServerSentEvent<String> event) {
        StringBuilder frame = new StringBuilder();
        if (event.data() == null && event.event() == null) {
            return frame.append(':').append(event.comment() == null ? "" : event.comment().replace("\n", " ")).append("\n\n").toString();
        }
        if (event.event() != null) {
            frame.append("event:").append(event.event()).append('\n');
        }
        for (String line : (event.data() == null ? "" : event.data()).split("\r\n|\r|\n", -1)) {
            frame.append("data:").append(line).append('\n');
        }
        if (event.id() != null) {
            frame.append("id:").append(event.id()).append('\n');
        }
        return frame.append('\n').toString();
    }
}

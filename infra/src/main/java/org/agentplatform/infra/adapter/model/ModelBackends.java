package org.agentplatform.infra.adapter.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where agents' replies come from: {@code echo} models answer deterministically (the local runtime's
 * scriptable echo agent); other models stream from the configured OpenAI-compatible chat-completions
 * endpoint (its key never leaves this class).
 */
public final class ModelBackends {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ParameterizedTypeReference<ServerSentEvent<String>> EVENTS = new ParameterizedTypeReference<>() {
    };
    private static final String DONE = "[DONE]";

    private final ModelCatalog catalog;
    private final WebClient openAi;
    private final Duration idleTimeout;

    /** One message of a chat so far: {@code user} or {@code assistant}. */
    public record ChatMessage(String role, String content) {
    }

    /** @param openAi a client with the endpoint's base URL and key, or null when none is configured */
    public ModelBackends(ModelCatalog catalog, WebClient openAi, Duration idleTimeout) {
        this.catalog = catalog;
        this.openAi = openAi;
        this.idleTimeout = idleTimeout;
    }

    /** Whether the model answers through the echo agent (also every model when no endpoint is configured). */
    public boolean isEcho(String model) {
        String backend = catalog.find(model).map(offer -> offer.backend()).orElse(ModelCatalog.ECHO_BACKEND);
        return ModelCatalog.ECHO_BACKEND.equals(backend) || openAi == null;
    }

    /** The model's reply to the chat, as the deltas the endpoint streams; fails when the endpoint fails or stalls. */
    public Flux<String> stream(String model, String instructions, List<ChatMessage> chat) {
        List<Map<String, String>> messages = new ArrayList<>();
        if (instructions != null && !instructions.isBlank()) {
            messages.add(Map.of("role", "system", "content", instructions));
        }
        chat.forEach(message -> messages.add(Map.of("role", message.role(), "content", message.content())));
        return openAi.post().uri("/chat/completions")
                .contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.ACCEPT, MediaType.TEXT_EVENT_STREAM_VALUE)
                .bodyValue(Map.of("model", model, "messages", messages, "stream", true))
                .retrieve()
                .bodyToFlux(EVENTS)
                .timeout(idleTimeout)
                .mapNotNull(ServerSentEvent::data)
                .takeWhile(data -> !DONE.equals(data.strip()))
                .map(data -> JSON.readTree(data).at("/choices/0/delta/content"))
                .filter(JsonNode::isString)
                .map(JsonNode::asString)
                .filter(delta -> !delta.isEmpty());
    }
}

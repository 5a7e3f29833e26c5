package org.agentplatform.infra.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.JsonNode;

/**
 * Where agents' replies come from: {@code echo} answers deterministically from the prompt; other models
 * go to the OpenAI-compatible chat-completions endpoint that is configured (its key never leaves this class).
 */
public final class ModelBackends {

    private final ModelCatalog catalog;
    private final WebClient openAi;
    private final Duration timeout;

    /** @param openAi a client with the endpoint's base URL and key, or null when none is configured */
    public ModelBackends(ModelCatalog catalog, WebClient openAi, Duration timeout) {
        this.catalog = catalog;
        this.openAi = openAi;
        this.timeout = timeout;
    }

    public CompletionStage<String> reply(String model, String instructions, String prompt) {
        String backend = catalog.find(model).map(offer -> offer.backend()).orElse(ModelCatalog.ECHO_BACKEND);
        if (ModelCatalog.ECHO_BACKEND.equals(backend) || openAi == null) {
            return CompletableFuture.completedFuture(echo(prompt));
        }
        List<Map<String, String>> messages = new ArrayList<>();
        if (instructions != null && !instructions.isBlank()) {
            messages.add(Map.of("role", "system", "content", instructions));
        }
        messages.add(Map.of("role", "user", "content", prompt));
        return openAi.post().uri("/chat/completions")
                .contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE)
                .bodyValue(Map.of("model", model, "messages", messages))
                .retrieve()
                .bodyToMono(JsonNode.class)
                .timeout(timeout)
                .map(body -> body.at("/choices/0/message/content").asString(""))
                .toFuture();
    }

    /** The echo model: the prompt back, prefixed, so tests and users can predict every reply. */
    public static String echo(String prompt) {
        return "echo: " + prompt;
    }
}

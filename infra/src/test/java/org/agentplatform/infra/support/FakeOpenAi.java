package org.agentplatform.infra.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real OpenAI-compatible chat-completions endpoint for tests: answers {@code "fake reply to: <prompt>"}
 * when called with the expected key, 401 otherwise.
 */
public final class FakeOpenAi {

    public static final String KEY = "sk-test-key";
    public static final String MODEL = "gpt-test";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static FakeOpenAi instance;

    private final HttpServer server;
    private final AtomicInteger completions = new AtomicInteger();

    private FakeOpenAi() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            byte[] answer;
            int status;
            if (!("Bearer " + KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                status = 401;
                answer = "{\"error\":{\"message\":\"bad key\"}}".getBytes(StandardCharsets.UTF_8);
            } else {
                JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
                JsonNode messages = request.get("messages");
                String prompt = messages.get(messages.size() - 1).get("content").asString();
                completions.incrementAndGet();
                status = 200;
                answer = JSON.writeValueAsBytes(Map.of("model", request.get("model").asString(), "choices",
                        List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", "fake reply to: " + prompt)))));
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
    }

    public static synchronized FakeOpenAi get() {
        if (instance == null) {
            try {
                instance = new FakeOpenAi();
            } catch (IOException failure) {
                throw new UncheckedIOException(failure);
            }
        }
        return instance;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public int completions() {
        return completions.get();
    }
}

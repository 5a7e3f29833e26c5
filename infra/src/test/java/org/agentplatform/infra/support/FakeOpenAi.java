package org.agentplatform.infra.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real OpenAI-compatible chat-completions endpoint for tests: answers {@code "fake reply to: <prompt>"}
 * (streamed word by word when asked to stream) when called with the expected key, 401 otherwise.
 */
public final class FakeOpenAi {

    public static final String KEY = "sk-test-key";
    public static final String MODEL = "gpt-test";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static FakeOpenAi instance;

    private final HttpServer server;
    private final AtomicInteger completions = new AtomicInteger();
    private volatile int lastChat;
    private volatile List<String> lastMessages = List.of();

    private FakeOpenAi() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            if (!("Bearer " + KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                send(exchange, 401, "application/json", "{\"error\":{\"message\":\"bad key\"}}".getBytes(StandardCharsets.UTF_8));
                return;
            }
            JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
            JsonNode messages = request.get("messages");
            String prompt = messages.get(messages.size() - 1).get("content").asString();
            String reply = "fake reply to: " + prompt;
            completions.incrementAndGet();
            lastChat = messages.size();
            List<String> said = new ArrayList<>();
            messages.forEach(message -> said.add(message.get("role").asString() + ": " + message.get("content").asString()));
            lastMessages = List.copyOf(said);
            if (!request.path("stream").asBoolean(false)) {
                send(exchange, 200, "application/json", JSON.writeValueAsBytes(Map.of("model", request.get("model").asString(), "choices",
                        List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", reply))))));
                return;
            }
            StringBuilder events = new StringBuilder();
            for (String word : reply.split("(?<= )")) {
                events.append("data: ").append(JSON.writeValueAsString(Map.of("choices",
                        List.of(Map.of("index", 0, "delta", Map.of("content", word)))))).append("\n\n");
            }
            events.append("data: [DONE]\n\n");
            send(exchange, 200, "text/event-stream", events.toString().getBytes(StandardCharsets.UTF_8));
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

    /** How many messages (system prompt included) the latest completion was asked with. */
    public int lastChatLength() {
        return lastChat;
    }

    /** The messages of the latest completion, each as {@code "<role>: <content>"}. */
    public List<String> lastMessages() {
        return lastMessages;
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}

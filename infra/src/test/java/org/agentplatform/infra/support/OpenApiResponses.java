package org.agentplatform.infra.support;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The document is the wire: every response a test's client receives is checked against {@code docs/openapi.json}: its
 * status is documented for the operation, its content type is one the operation declares, and a JSON body validates
 * against the declared schema (OpenAPI 3.1's dialect of JSON Schema 2020-12). A mismatch fails the request, so the test
 * that caused it fails, naming what differs. An event stream is checked by status and content type, then frame by frame
 * as the test reads it: each frame's {@code event:} name must be one the document lists for the stream ({@code x-sse-events})
 * and its {@code data:} must validate against that event's schema. A path outside the document is checked only when it
 * answers a success: an undocumented route.
 */
public final class OpenApiResponses {

    private static final String DOCUMENT = "https://agent-platform.test/openapi.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final OpenApiResponses INSTANCE = new OpenApiResponses(Path.of("..", "docs", "openapi.json"));
    /** {@code -Dopenapi.responses=report}: violations are only written down (to count them all in one run), not failed. */
    /** The document itself and its browsable page, which the document does not list. */
    private static final Pattern DOCUMENT_PAGES = Pattern.compile("/api/v1/(openapi|docs|swagger-ui)");
    private static final boolean ENFORCED = !"report".equals(System.getProperty("openapi.responses"));

    private final JsonNode document;
    private final SchemaRegistry schemas;
    private final List<Route> routes = new ArrayList<>();
    private final Map<String, Schema> loaded = new ConcurrentHashMap<>();

    /** A path of the document, as a pattern of the request path (its templates' segments match any one segment). */
    private record Route(String template, Pattern pattern, int literals) {
    }

    OpenApiResponses(Path documentFile) {
        try {
            String text = Files.readString(documentFile, StandardCharsets.UTF_8);
            this.document = JSON.readTree(text);
            this.schemas = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(), builder -> builder.schemas(Map.of(DOCUMENT, text)));
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
        Iterator<String> paths = document.get("paths").propertyNames().iterator();
        while (paths.hasNext()) {
            String template = paths.next();
            String regex = "^" + Pattern.quote(template).replaceAll("\\{[^}/]+}", "\\\\E[^/]+\\\\Q") + "$";
            int literals = template.replaceAll("\\{[^}/]+}", "").length();
            routes.add(new Route(template, Pattern.compile(regex), literals));
        }
        routes.sort(Comparator.comparingInt(Route::literals).reversed());
    }

    /** The filter every test client gets: a response that does not match the document fails its request. */
    public static ExchangeFilterFunction validating() {
        return (request, next) -> next.exchange(request).flatMap(response -> INSTANCE.checked(request.method(), request.url(), response));
    }

    private Mono<ClientResponse> checked(HttpMethod method, URI url, ClientResponse response) {
        if (DOCUMENT_PAGES.matcher(url.getRawPath()).lookingAt()) {
            return Mono.just(response);
        }
        Optional<MediaType> type = response.headers().contentType();
        if (type.isPresent() && MediaType.TEXT_EVENT_STREAM.isCompatibleWith(type.get())) {
            fail(violations(method, url.getRawPath(), response.statusCode().value(), type.orElse(null), null));
            Frames frames = new Frames(method.name() + " " + url.getRawPath() + " -> " + response.statusCode().value(),
                    streamEvents(method, url.getRawPath()));
            return Mono.just(response.mutate().body(body -> body.doOnNext(frames::read)).build());
        }
        return response.bodyToMono(byte[].class).defaultIfEmpty(new byte[0]).map(body -> {
            fail(violations(method, url.getRawPath(), response.statusCode().value(), type.orElse(null), body));
            DataBuffer buffer = DefaultDataBufferFactory.sharedInstance.wrap(body);
            return response.mutate().body(Flux.just(buffer)).build();
        });
    }

    private static void fail(List<String> violations) {
        if (!violations.isEmpty()) {
            record(violations);
            if (!ENFORCED) {
                return;
            }
            throw new AssertionError("The response does not match docs/openapi.json:\n  " + String.join("\n  ", violations));
        }
    }

    /** Every violation also goes to {@code target/openapi-violations.txt}, one a line, for the whole run's count. */
    private static synchronized void record(List<String> violations) {
        try {
            Files.writeString(Path.of("target", "openapi-violations.txt"), String.join("\n", violations) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // the assertion says it anyway
        }
    }

    /** What in the response differs from the document (empty when it matches); {@code body} null for a stream. */
    List<String> violations(HttpMethod method, String path, int status, MediaType type, byte[] body) {
        String call = method.name() + " " + path + " -> " + status;
        Optional<Route> route = route(path);
        if (route.isEmpty()) {
            boolean ours = path.startsWith("/api/") || path.startsWith("/storage/");
            return ours && status < 400 ? List.of(call + ": the path is not in the document") : List.of();
        }
        JsonNode operation = document.get("paths").get(route.get().template()).get(method.name().toLowerCase(Locale.ROOT));
        if (operation == null) {
            return status == 405 || status == 404 || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS ? List.of()
                    : List.of(call + ": " + method.name() + " is not documented for " + route.get().template());
        }
        JsonNode responses = operation.get("responses");
        String code = Integer.toString(status);
        // the document's default answer is its refusals below the routes: it stands for no success
        String key = responses.has(code) ? code : responses.has(code.charAt(0) + "XX") ? code.charAt(0) + "XX"
                : status >= 400 && responses.has("default") ? "default" : null;
        if (key == null) {
            return List.of(call + ": status " + status + " is not documented for " + method.name() + " " + route.get().template());
        }
        JsonNode content = responses.get(key).get("content");
        boolean empty = body != null && body.length == 0;
        if (content == null || content.isEmpty()) {
            return empty || body == null ? List.of() : List.of(call + ": a body where the document declares none");
        }
        if (empty && (status == 204 || method == HttpMethod.HEAD)) {
            return List.of();
        }
        if (type == null) {
            return List.of(call + ": no Content-Type; the document declares " + content.propertyNames());
        }
        String declared = null;
        for (String media : content.propertyNames()) {
            if (MediaType.parseMediaType(media).isCompatibleWith(type)) {
                declared = media;
                break;
            }
        }
        if (declared == null) {
            return List.of(call + ": Content-Type " + type + " where the document declares " + content.propertyNames());
        }
        JsonNode schema = content.get(declared).get("schema");
        if (body == null || schema == null || !MediaType.APPLICATION_JSON.isCompatibleWith(type)) {
            return List.of();
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (RuntimeException notJson) {
            return List.of(call + ": the body is not JSON");
        }
        String pointer = "#/paths/" + escape(route.get().template()) + "/" + method.name().toLowerCase(Locale.ROOT) + "/responses/" + escape(key)
                + "/content/" + escape(declared) + "/schema";
        List<String> violations = new ArrayList<>();
        for (Error error : loaded.computeIfAbsent(pointer, at -> schemas.getSchema(SchemaLocation.of(DOCUMENT + at))).validate(json)) {
            violations.add(call + ": " + error.getInstanceLocation() + " " + error.getMessage());
        }
        return violations;
    }

    /** The document's path that {@code path} is an instance of, the most literal first. */
    private Optional<Route> route(String path) {
        return routes.stream().filter(candidate -> candidate.pattern().matcher(path).matches()).findFirst();
    }

    /** What in one frame of the stream at {@code path} differs from the document (empty when it matches). */
    List<String> frameViolations(HttpMethod method, String path, String frame) {
        return new Frames(method.name() + " " + path, streamEvents(method, path)).check(frame);
    }

    /** The document's {@code x-sse-events} of the stream at {@code path} (null when it lists none). */
    private JsonNode streamEvents(HttpMethod method, String path) {
        return route(path)
                .map(route -> document.get("paths").get(route.template()).path(method.name().toLowerCase(Locale.ROOT)).path("responses")
                        .path("200").path("content").path("text/event-stream").get("x-sse-events"))
                .orElse(null);
    }

    /** The schema of the event named {@code event} among {@code events} ({@code "prefix.*"} names every event with that prefix). */
    private Schema eventSchema(JsonNode events, String event) {
        JsonNode reference = events.get(event);
        if (reference == null) {
            for (String name : events.propertyNames()) {
                if (name.endsWith("*") && event.startsWith(name.substring(0, name.length() - 1))) {
                    reference = events.get(name);
                }
            }
        }
        if (reference == null) {
            return null;
        }
        return loaded.computeIfAbsent(reference.get("$ref").asString(), at -> schemas.getSchema(SchemaLocation.of(DOCUMENT + at)));
    }

    /** Reads a stream's bytes as they pass, frame by frame, and checks each frame against the document. */
    private final class Frames {

        private final String call;
        private final JsonNode events;
        private byte[] pending = new byte[0];

        Frames(String call, JsonNode events) {
            this.call = call;
            this.events = events;
        }

        void read(DataBuffer buffer) {
            byte[] chunk = new byte[buffer.readableByteCount()];
            buffer.toByteBuffer(buffer.readPosition(), chunk.length).get(chunk);
            byte[] all = new byte[pending.length + chunk.length];
            System.arraycopy(pending, 0, all, 0, pending.length);
            System.arraycopy(chunk, 0, all, pending.length, chunk.length);
            int end = lastFrameEnd(all);
            pending = java.util.Arrays.copyOfRange(all, end, all.length);
            for (String frame : new String(all, 0, end, StandardCharsets.UTF_8).split("\n\n")) {
                if (!frame.isBlank()) {
                    fail(check(frame));
                }
            }
        }

        /** Where the last complete frame ends (after its blank line): a frame may come in pieces. */
        private static int lastFrameEnd(byte[] bytes) {
            for (int index = bytes.length - 1; index > 0; index--) {
                if (bytes[index] == '\n' && bytes[index - 1] == '\n') {
                    return index + 1;
                }
            }
            return 0;
        }

        private List<String> check(String frame) {
            String event = "message";
            StringBuilder data = null;
            for (String line : frame.split("\n")) {
                if (line.startsWith(":")) {
                    continue;
                }
                int colon = line.indexOf(':');
                String field = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
                if (field.equals("event")) {
                    event = value;
                } else if (field.equals("data")) {
                    data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                }
            }
            if (data == null) {
                return List.of();
            }
            if (events == null) {
                return List.of(call + ": frames where the document lists no events for the stream");
            }
            Schema schema = eventSchema(events, event);
            if (schema == null) {
                return List.of(call + ": event '" + event + "' is not among the stream's events " + events.propertyNames());
            }
            JsonNode json;
            try {
                json = JSON.readTree(data.toString());
            } catch (RuntimeException notJson) {
                return List.of(call + ": the data of event '" + event + "' is not JSON");
            }
            List<String> violations = new ArrayList<>();
            for (Error error : schema.validate(json)) {
                violations.add(call + ": event '" + event + "' " + error.getInstanceLocation() + " " + error.getMessage());
            }
            return violations;
        }
    }

    private static String escape(String segment) {
        return segment.replace("~", "~0").replace("/", "~1");
    }
}

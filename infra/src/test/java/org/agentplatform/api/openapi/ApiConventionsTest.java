package org.agentplatform.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rules of {@code docs/api-conventions.md} that the document can show, checked over every schema and route of
 * {@code docs/openapi.json} (which {@code OpenApiDocumentTest} keeps equal to the served one, and every test response
 * is validated against): field names, timestamps, and how lists page. Where the contract fixes a name that breaks a
 * rule, the exception is listed here with its reason, and nowhere else.
 */
class ApiConventionsTest {

    private static final Pattern SNAKE_CASE = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");

    /** Schemas whose fields the contract names in camelCase, and ours that belong to the same resource. */
    private static final Map<String, String> CAMEL_CASE = Map.of(
            "OperationSnapshot", "the contract's runtime operation snapshot",
            "Target", "the operation snapshot's target (contract)",
            "OperationStreamEvent", "an operation's event: the operation snapshot's resource, in its casing",
            "OperationConflict", "the contract's flat 409 bodies of operation cancel and events",
            "CapabilitiesItem", "the contract's provider catalog item (\"the wire names are camelCase\")",
            "UploadRequest", "the contract's presign upload request (contentType, contentLengthBytes)",
            "TerminalRequest", "the contract's terminal session request (platformAgentId, conversationId, resumeTerminalId)");

    /**
     * Lists that answer everything at once, each bounded by what it lists. Every other list takes {@code limit} and a
     * cursor ({@code since} or {@code cursor}) that reaches its oldest item.
     */
    private static final Map<String, String> UNPAGED = Map.of(
            "/api/v1/providers", "the catalog: the providers this node is configured with",
            "/api/v1/processors", "the node's event processors, a fixed set",
            "/api/v1/agents/{agentId}/keys", "at most three active agent keys",
            "/api/v1/instances/{instanceId}/faults", "the instance's fault rules, replaced as a whole by PUT",
            "/api/v1/agents/{agentId}/tasks/{taskId}/webhooks/{webhookId}/deliveries", "the contract's: limit only, newest first",
            "/api/v1/audit/events/{index}/proof", "a proof, not a list: an audit path of at most 64 hashes",
            "/api/v1/audit/consistency", "a proof, not a list: at most 128 hashes");

    private final JsonNode document = read();

    @Test
    void fieldsAreSnakeCaseUnlessTheContractNamesThemOtherwise() {
        List<String> wrong = new ArrayList<>();
        schemas().forEach((name, schema) -> {
            if (CAMEL_CASE.containsKey(name)) {
                return;
            }
            schema.path("properties").propertyNames().forEach(field -> {
                if (!SNAKE_CASE.matcher(field).matches()) {
                    wrong.add(name + "." + field);
                }
            });
        });
        assertThat(wrong).as("fields not in snake_case").isEmpty();
        assertThat(CAMEL_CASE.keySet()).as("exceptions for schemas that exist").allSatisfy(name -> assertThat(schemas()).containsKey(name));
    }

    @Test
    void everyTimestampIsAnRfc3339DateTime() {
        List<String> wrong = new ArrayList<>();
        schemas().forEach((name, schema) -> schema.path("properties").properties().forEach(field -> {
            String key = field.getKey();
            if ((key.endsWith("_at") || key.endsWith("At") || key.equals("timestamp")) && !"date-time".equals(format(field.getValue()))) {
                wrong.add(name + "." + key);
            }
        }));
        assertThat(wrong).as("timestamps not typed date-time").isEmpty();
    }

    @Test
    void everyListPagesWithALimitAndACursorUnlessItIsBounded() {
        Set<String> unpaged = new TreeSet<>();
        document.get("paths").properties().forEach(path -> {
            JsonNode get = path.getValue().get("get");
            // a collection's path ends with its name; a single resource's (which may embed an array) with its id
            if (get == null || path.getKey().endsWith("}") || !lists(get)) {
                return;
            }
            Set<String> params = new TreeSet<>();
            get.path("parameters").forEach(parameter -> params.add(parameter.get("name").asString()));
            boolean paged = params.contains("limit") && (params.contains("since") || params.contains("cursor"));
            if (!paged) {
                unpaged.add(path.getKey());
            }
        });
        assertThat(unpaged).as("lists without limit and a cursor").isEqualTo(new TreeSet<>(UNPAGED.keySet()));
    }

    /** A route answers a list: its 200 body is, or holds at its top, an array. */
    private boolean lists(JsonNode get) {
        JsonNode schema = get.path("responses").path("200").path("content").path("application/json").path("schema");
        JsonNode body = resolve(schema);
        JsonNode data = resolve(body.path("properties").path("data"));
        if (isArray(data)) {
            return true;
        }
        for (JsonNode property : data.path("properties")) {
            if (isArray(resolve(property))) {
                return true;
            }
        }
        return isArray(data.path("additionalProperties"));
    }

    /** Whether the schema's type is array (alone, or with null: {@code ["array", "null"]}). */
    private static boolean isArray(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            for (JsonNode one : type) {
                if ("array".equals(one.asString())) {
                    return true;
                }
            }
            return false;
        }
        return type.isString() && "array".equals(type.asString());
    }

    private JsonNode resolve(JsonNode schema) {
        JsonNode ref = schema.get("$ref");
        return ref == null ? schema : document.get("components").get("schemas").get(ref.asString().substring("#/components/schemas/".length()));
    }

    private static String format(JsonNode schema) {
        if (schema.has("format")) {
            return schema.get("format").asString();
        }
        for (String combinator : List.of("anyOf", "oneOf")) {
            for (JsonNode option : schema.path(combinator)) {
                if (option.has("format")) {
                    return option.get("format").asString();
                }
            }
        }
        return null;
    }

    private Map<String, JsonNode> schemas() {
        Map<String, JsonNode> schemas = new java.util.TreeMap<>();
        document.get("components").get("schemas").properties().forEach(entry -> schemas.put(entry.getKey(), entry.getValue()));
        return schemas;
    }

    private static JsonNode read() {
        try {
            return JsonMapper.builder().build().readTree(Files.readString(Path.of("..", "docs", "openapi.json")));
        } catch (IOException failure) {
            throw new java.io.UncheckedIOException(failure);
        }
    }
}

package org.agentplatform.api.openapi;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.agentplatform.api.terminal.TerminalSocket;
import org.agentplatform.api.web.PublicPaths;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.server.WebFilter;

/**
 * The machine-readable contract: OpenAPI 3.1 at {@code /api/v1/openapi.json} (and {@code .yaml}), a browsable page at
 * {@code /api/v1/docs}. The routes come from the controllers; this adds what they cannot say: the bearer scheme and the
 * public routes, the error envelope on every operation, the SSE streams and the terminal WebSocket, stable operation ids
 * ({@code <area><Action>}) and one tag per area.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

    public static final String DOCUMENT = "/api/v1/openapi";
    static final String BEARER = "bearerAuth";
    static final String ERROR = "ErrorResponse";
    /** The error envelope, for a route's {@code @ApiResponse} of a status the document does not give every operation. */
    public static final String ERROR_RESPONSE = "#/components/schemas/" + ERROR;
    /** The contract's harness error body (502 of the agent writes through the runtime), for a route's {@code @ApiResponse}. */
    public static final String HARNESS_ERROR = "#/components/schemas/HarnessError";
    /** The contract's flat 409 bodies of operation cancel and events (or the envelope for other conflicts). */
    public static final String OPERATION_CONFLICT = "#/components/schemas/OperationConflict";
    /**
     * The document's tags: the contract's names where it names one ({@code deploy}, {@code instances}, {@code computer},
     * {@code mobile}, {@code agents}, {@code tasks}, {@code conversations}, {@code files}), plural nouns in its style for
     * the rest, each with its description; the routes of a class carry its area's tags ({@link #AREA_TAGS}).
     */
    private static final Map<String, String> TAGS = Map.ofEntries(
            Map.entry("deploy", "The provider, region and instance kind catalog to deploy from"),
            Map.entry("instances", "Instances: deploy, start, stop, restart, destroy"),
            Map.entry("computer", "Desktop control (linux, windows, mac): screenshot, click, move, scroll, type, key"),
            Map.entry("mobile", "Android control: screenshot, tap, swipe, scroll, type, key, press_button"),
            Map.entry("agents", "Platform agents: list, read, visibility, MCP, and the synchronous invoke"),
            Map.entry("tasks", "Asynchronous tasks: create (202), poll, stream (SSE), continue, cancel; the inbox"),
            Map.entry("conversations", "Long-lived multi-turn conversations and their stream"),
            Map.entry("files", "Presigned file upload and download, and the built-in object store behind them"),
            Map.entry("webhooks", "Signed callbacks on tasks and their deliveries"),
            Map.entry("skills", "Agent skills, template and models"),
            Map.entry("terminals", "Terminal sessions: single-use tickets and the WebSocket"),
            Map.entry("runtime", "Runtime methods (JSON-RPC 2.0), operations (snapshot, cancel, stream) and capability manifests"),
            Map.entry("faults", "Fault injection on the local provider"),
            Map.entry("audit", "The audit trail: resource histories, the NDJSON export, signed checkpoints, verification"),
            Map.entry("processors", "The node's event processors: position, lag, segments, parked events and their retry"),
            Map.entry("auth", "Login, the console's session cookie, and the public signing keys (JWKS)"),
            Map.entry("api-keys", "User API keys (oag_)"),
            Map.entry("owners", "The caller's owner: who it is, and erasing its personal content (crypto-shredding)"),
            Map.entry("agent-keys", "Agent API keys (bak_), at most three active per agent"));
    /** The tags of each route class's area (its name without {@code Routes}). */
    private static final Map<String, List<String>> AREA_TAGS = Map.ofEntries(
            Map.entry("Catalog", List.of("deploy")),
            Map.entry("Instance", List.of("instances")),
            Map.entry("Control", List.of("computer", "mobile")),
            Map.entry("Agent", List.of("agents")),
            Map.entry("Invoke", List.of("agents")),
            Map.entry("Task", List.of("tasks")),
            Map.entry("Conversation", List.of("conversations")),
            Map.entry("File", List.of("files")),
            Map.entry("Object", List.of("files")),
            Map.entry("Webhook", List.of("webhooks")),
            Map.entry("Skill", List.of("skills")),
            Map.entry("Terminal", List.of("terminals")),
            Map.entry("Method", List.of("runtime")),
            Map.entry("Operation", List.of("runtime")),
            Map.entry("Capability", List.of("runtime")),
            Map.entry("Fault", List.of("faults")),
            Map.entry("Audit", List.of("audit")),
            Map.entry("Processor", List.of("processors")),
            Map.entry("Auth", List.of("auth")),
            Map.entry("ApiKey", List.of("api-keys")),
            Map.entry("Owner", List.of("owners")),
            Map.entry("AgentKey", List.of("agent-keys")));
    private static final List<Integer> ERROR_STATUSES = List.of(400, 401, 403, 404, 409, 413, 429, 500, 503, 504);
    /** The {@code default} response: the refusals any route may answer before it is reached (405, 406, 414, 431). */
    private static final String HTTP_LEVEL = "The error envelope for a refusal at the HTTP level: " + String.join(", ",
            Arrays.stream(ErrorCode.values()).filter(code -> !ERROR_STATUSES.contains(code.httpStatus()) && code.httpStatus() != 415
                    && code.httpStatus() != 422).map(code -> code.httpStatus() + " " + code.wireName()).toList());

    /** Which response fields are always present and which may be null, from the routes' own record types. */
    private final ResponseFields responseFields = new ResponseFields();

    @Bean
    OpenAPI platformOpenApi() {
        return new OpenAPI(SpecVersion.V31)
                .info(new Info().title("Agent Platform API").version("2.0.0").description("""
                        Deploy agent instances, drive their desktops and phones, run tasks and conversations with their agents, \
                        stream progress (SSE), receive signed webhooks, open terminals, and manage skills and runtime operations. \
                        Every endpoint needs `Authorization: Bearer <token>` (an `oag_` API key or an RS256 JWT) unless it says \
                        otherwise; every error is the `ErrorResponse` envelope."""))
                .components(new Components()
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .description("An `oag_` API key, or an RS256 JWT of the built-in issuer (login) or a trusted one")))
                .servers(List.of(new Server().url("/").description("This service (the document's own origin)")))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }

    /**
     * Operation ids and tags from the controller ({@code TaskRoutes.create} is {@code taskCreate}, tag {@code tasks}; a
     * method named for a Java keyword with its area, {@code TaskRoutes.continueTask}, is {@code taskContinue}).
     */
    @Bean
    OperationCustomizer platformOperations() {
        return (operation, handler) -> {
            responseFields.collect(handler);
            String area = handler.getBeanType().getSimpleName().replaceAll("(Routes|Controller)$", "");
            String tag = Character.toLowerCase(area.charAt(0)) + area.substring(1);
            String method = handler.getMethod().getName();
            if (method.endsWith(area) && method.length() > area.length()) {
                method = method.substring(0, method.length() - area.length());
            }
            operation.setOperationId(tag + Character.toUpperCase(method.charAt(0)) + method.substring(1));
            List<String> tags = AREA_TAGS.get(area);
            if (tags == null) {
                throw new IllegalStateException(handler.getBeanType().getSimpleName() + " has no tags in OpenApiConfiguration.AREA_TAGS");
            }
            operation.setTags(tags);
            if (operation.getSummary() == null) {
                operation.setSummary(summary(area, method));
            }
            return operation;
        };
    }

    /** What the controllers cannot say: public routes, the error envelope, the SSE streams, the terminal WebSocket. */
    @Bean
    OpenApiCustomizer platformDocument() {
        return document -> {
            responseFields.apply(document);
            document.getComponents().addSchemas(ERROR, errorResponse()).addSchemas("Error", error())
                    .addSchemas("HarnessError", harnessError()).addSchemas("OperationConflict", operationConflict());
            StreamEvents.addSchemas(document.getComponents());
            document.getPaths().put(TerminalSocket.PATTERN, terminalSocket());
            Set<String> tags = new TreeSet<>();
            document.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((verb, operation) -> {
                if (PublicPaths.covers(path)) {
                    operation.setSecurity(List.of());
                }
                if (path.endsWith("/events") && !path.startsWith("/api/v1/audit")) {
                    eventStream(path, operation);
                }
                if (path.endsWith("/methods")) {
                    jsonRpc(document.getComponents(), operation);
                }
                if (operation.getParameters() != null) {
                    operation.getParameters().stream().filter(parameter -> "surface".equals(parameter.getName()))
                            .forEach(parameter -> parameter.setSchema(enumerated("computer: linux, windows and mac instances; mobile: android"
                                    + " instances", List.of("computer", "mobile"))));
                }
                errors(operation);
                if (operation.getTags() != null) {
                    tags.addAll(operation.getTags());
                }
            }));
            document.setTags(TAGS.keySet().stream().filter(tags::contains).sorted(Comparator.comparing(OpenApiConfiguration::tagOrder))
                    .map(name -> new Tag().name(name).description(TAGS.get(name))).toList());
            // the routes that write bytes (streams, exports, objects) say so above; Spring's buffer type is nothing on the wire
            document.getComponents().getSchemas().remove("DataBuffer");
            FreeFormObjects.apply(document);
        };
    }

    /** {@code /api/v1/openapi.json} is the document's name in the contract's world; springdoc serves it without the suffix. */
    @Bean
    WebFilter openApiJsonAlias() {
        return (exchange, chain) -> DOCUMENT.concat(".json").equals(exchange.getRequest().getPath().value())
                ? chain.filter(exchange.mutate().request(exchange.getRequest().mutate().path(DOCUMENT).build()).build())
                : chain.filter(exchange);
    }

    /** The contract's tags first, in its order, then the others by name. */
    private static String tagOrder(String tag) {
        int contract = List.of("deploy", "instances", "computer", "mobile", "agents", "tasks", "conversations", "files").indexOf(tag);
        return contract >= 0 ? "0" + contract : "1" + tag;
    }

    /** {@code TaskRoutes.createToFirstFrame} reads "Task: create to first frame". */
    private static String summary(String area, String method) {
        String words = method.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        return area.replaceAll("([a-z0-9])([A-Z])", "$1 $2") + ": " + words;
    }

    /**
     * The error envelope on every operation's usual statuses, 415 where a body is read, and on any error status a route
     * declares itself ({@code 422} of login) that has no body yet.
     */
    private static void errors(Operation operation) {
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        for (int status : ERROR_STATUSES) {
            responses.computeIfAbsent(Integer.toString(status), code -> envelope(describe(status)));
        }
        if (operation.getRequestBody() != null) {
            responses.computeIfAbsent("415", code -> envelope(describe(415)));
        }
        responses.computeIfAbsent("default", code -> envelope(HTTP_LEVEL));
        responses.replaceAll((code, response) -> code.matches("[45]\\d\\d") && response.getContent() == null
                ? envelope(response.getDescription()) : response);
        operation.setResponses(responses);
    }

    private static ApiResponse envelope(String description) {
        return new ApiResponse().description(description)
                .content(new Content().addMediaType("application/json", new MediaType().schema(ref(ERROR))));
    }

    private static String describe(int status) {
        return "The error envelope; `error.code` is one of: " + String.join(", ", Arrays.stream(ErrorCode.values())
                .filter(code -> code.httpStatus() == status).map(ErrorCode::wireName).toList());
    }

    /** An SSE route: the resume header, 204, and the frames it sends by {@code event:} name ({@link StreamEvents}). */
    private static void eventStream(String path, Operation operation) {
        boolean declared = operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(parameter -> "Last-Event-ID".equalsIgnoreCase(parameter.getName()));
        if (!declared) {
            operation.addParametersItem(new Parameter().in("header").name("Last-Event-ID").required(false)
                    .description("Resume after this event id (the `id:` of the last event received)").schema(schema("string", null)));
        }
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        MediaType frames = new MediaType().schema(schema("string", null));
        frames.addExtension(StreamEvents.EXTENSION, StreamEvents.of(path));
        boolean ends = !path.equals(StreamEvents.INBOX);
        responses.put("200", new ApiResponse().description("A `text/event-stream`: each event is `event:`, its `data:` lines (JSON), then"
                        + " `id:`; comment lines are heartbeats; " + (ends ? "the stream ends after `done` once the resource is finished"
                        : "the stream does not end") + ". `x-sse-events` gives the schema of each event's data by its `event:` name.")
                .content(new Content().addMediaType("text/event-stream", frames)));
        if (ends) {
            responses.put("204", new ApiResponse().description("Resumed at or past the finished stream's last event: nothing more will come"));
        }
        operation.setResponses(responses);
    }

    /**
     * {@code POST .../methods} reads its body itself (malformed JSON is a JSON-RPC parse error, not the envelope), so
     * the route's signature says only "a string"; the document says what goes over the wire: a JSON-RPC 2.0 request,
     * HTTP 202 with the queued operation as {@code result}, HTTP 400 with a JSON-RPC error (or the envelope for a bad
     * {@code deadline_ms} or unstorable text).
     */
    private static void jsonRpc(Components components, Operation operation) {
        Schema<Object> anyId = new Schema<>();
        anyId.setSpecVersion(SpecVersion.V31);
        anyId.setDescription("any JSON value; the answer echoes it as sent (null when absent)");
        Schema<Object> request = schema("object", "A JSON-RPC 2.0 call of a runtime method");
        request.addProperty("jsonrpc", enumerated("always 2.0", List.of("2.0")));
        request.addProperty("id", anyId);
        request.addProperty("method", schema("string", "one of: " + String.join(", ",
                Arrays.stream(RuntimeMethod.values()).map(RuntimeMethod::wireName).toList()) + "; any other answers -32011"));
        request.addProperty("params", schema("object", "the method's parameters"));
        request.setRequired(List.of("jsonrpc", "method"));
        Schema<Object> result = schema("object", "The call is queued: the runtime operation's snapshot");
        result.addProperty("jsonrpc", enumerated("always 2.0", List.of("2.0")));
        result.addProperty("id", anyId);
        result.addProperty("result", ref("OperationSnapshot"));
        result.setRequired(List.of("jsonrpc", "id", "result"));
        Schema<Object> anyData = new Schema<>();
        anyData.setSpecVersion(SpecVersion.V31);
        anyData.setDescription("what was wrong (a reason, the unknown method and the supported ones), or null");
        Schema<Object> error = schema("object", null);
        error.addProperty("code", schema("integer", "-32700 parse error, -32600 invalid request, -32602 invalid params, "
                + "-32011 METHOD_NOT_SUPPORTED"));
        error.addProperty("message", schema("string", null));
        error.addProperty("data", anyData);
        error.setRequired(List.of("code", "message"));
        Schema<Object> failure = schema("object", "A JSON-RPC 2.0 error answer");
        failure.addProperty("jsonrpc", enumerated("always 2.0", List.of("2.0")));
        failure.addProperty("id", anyId);
        failure.addProperty("error", error);
        failure.setRequired(List.of("jsonrpc", "id", "error"));
        components.addSchemas("JsonRpcRequest", request).addSchemas("JsonRpcResult", result).addSchemas("JsonRpcError", failure);
        operation.setRequestBody(new RequestBody().required(true)
                .content(new Content().addMediaType("application/json", new MediaType().schema(ref("JsonRpcRequest")))));
        Schema<Object> either = new Schema<>();
        either.setSpecVersion(SpecVersion.V31);
        either.setAnyOf(List.of(ref("JsonRpcError"), ref(ERROR)));
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        responses.remove("200");
        responses.put("202", new ApiResponse().description("Queued: the runtime operation's snapshot as the JSON-RPC result")
                .content(new Content().addMediaType("application/json", new MediaType().schema(ref("JsonRpcResult")))));
        responses.put("400", new ApiResponse().description("A JSON-RPC error; the error envelope for a bad `deadline_ms` or unstorable text")
                .content(new Content().addMediaType("application/json", new MediaType().schema(either))));
        operation.setResponses(responses);
    }

    private static PathItem terminalSocket() {
        Operation attach = new Operation()
                .operationId("terminalAttach")
                .tags(List.of("terminals"))
                .summary("Attach to a terminal (WebSocket)")
                .description("""
                        A WebSocket upgrade. The single-use ticket from `POST .../terminal-sessions` is the query parameter \
                        `ticket` or the subprotocol `ticket.<ticket>` (the 101 names `terminal.v1` when offered, else the ticket \
                        subprotocol offered). Binary or text frames carry the terminal's bytes both ways; a text frame \
                        `{"type":"resize","cols":C,"rows":R}` resizes. Refusals and ends are close frames: 4400 \
                        ticket_missing/protocol_refused, 4401 ticket_invalid/ticket_expired, \
                        4403 ticket_refused, 4409 ticket_used, 4404 terminal_ended, 4001 replaced, 1000 shell_exited or closed, \
                        1001 the end's reason.""")
                .security(List.of())
                .addParametersItem(new Parameter().in("path").name("instanceId").required(true).schema(uuid()))
                .addParametersItem(new Parameter().in("path").name("terminalId").required(true).schema(uuid()))
                .addParametersItem(new Parameter().in("query").name("ticket").required(false).schema(schema("string", null)))
                .addParametersItem(new Parameter().in("query").name("cols").required(false).schema(schema("integer", null)))
                .addParametersItem(new Parameter().in("query").name("rows").required(false).schema(schema("integer", null)))
                .responses(new ApiResponses().addApiResponse("101", new ApiResponse().description("Switching Protocols: the terminal's WebSocket")));
        return new PathItem().get(attach);
    }

    private static Schema<Object> errorResponse() {
        Schema<Object> response = schema("object", "The error envelope");
        response.addProperty("success", schema("boolean", "always false"));
        response.addProperty("error", ref("Error"));
        response.setRequired(List.of("success", "error"));
        return response;
    }

    private static Schema<Object> error() {
        Schema<Object> error = schema("object", null);
        error.addProperty("type", enumerated("problem-type slug; key on code", List.of("api_error", "invalid_request_error",
                "authentication_error", "permission_error", "rate_limit_error", "not_found_error", "conflict_error", "validation_error")));
        error.addProperty("code", enumerated("stable machine-readable code",
                Arrays.stream(ErrorCode.values()).map(ErrorCode::wireName).toList()));
        error.addProperty("message", schema("string", "human-readable, presentation only"));
        error.addProperty("request_id", schema("string", "also in the X-Request-Id header"));
        error.addProperty("param", schema("string", "the offending parameter for missing_param / invalid_param; empty otherwise"));
        Schema<Object> metadata = schema("object", "structured hints (retry strategy, related ids)");
        metadata.setAdditionalProperties(schema("string", null));
        error.addProperty("metadata", metadata);
        error.setRequired(List.of("code", "message"));
        return error;
    }

    private static Schema<Object> harnessError() {
        Schema<Object> item = schema("object", "one runtime write: what it was and how it ended");
        item.addProperty("kind", schema("string", "the runtime method"));
        item.addProperty("name", schema("string", "the skill, template or resource written"));
        item.addProperty("status", schema("string", "failed, unknown, or as the runtime reports it"));
        item.addProperty("code", schema("string", null));
        item.addProperty("message", schema("string", null));
        Schema<Object> operations = schema("array", null);
        operations.setItems(item);
        Schema<Object> error = schema("object", null);
        error.addProperty("code", enumerated("always harness_error", List.of("harness_error")));
        error.addProperty("message", schema("string", null));
        error.addProperty("operations", operations);
        error.setRequired(List.of("code", "message", "operations"));
        Schema<Object> body = schema("object", "Some runtime writes failed; the applied ones stay in effect (no `success` field)");
        body.addProperty("error", error);
        body.setRequired(List.of("error"));
        return body;
    }

    private static Schema<Object> operationConflict() {
        Schema<Object> flat = schema("object", "OPERATION_NOT_CANCELLABLE on cancel; OPERATION_CURSOR_AHEAD (with cursor and"
                + " lastSequence) on events");
        flat.addProperty("code", enumerated(null, List.of("OPERATION_NOT_CANCELLABLE", "OPERATION_CURSOR_AHEAD")));
        flat.addProperty("operationId", uuid());
        flat.addProperty("cursor", schema("string", "the requested cursor (OPERATION_CURSOR_AHEAD)"));
        flat.addProperty("lastSequence", schema("string", "the operation's last sequence (OPERATION_CURSOR_AHEAD)"));
        flat.addProperty("httpStatus", schema("integer", "always 409"));
        flat.setRequired(List.of("code", "operationId", "httpStatus"));
        Schema<Object> either = new Schema<>();
        either.setSpecVersion(SpecVersion.V31);
        either.setDescription("The contract's flat 409 body, or the error envelope for other conflicts");
        either.setAnyOf(List.of(flat, ref(ERROR)));
        return either;
    }

    static Schema<Object> ref(String name) {
        Schema<Object> ref = new Schema<>();
        ref.set$ref("#/components/schemas/" + name);
        return ref;
    }

    /** A JSON Schema of OpenAPI 3.1 (its {@code type} is a set there). */
    static Schema<Object> schema(String type, String description) {
        Schema<Object> schema = new Schema<>();
        schema.setSpecVersion(SpecVersion.V31);
        schema.setTypes(Set.of(type));
        schema.setDescription(description);
        return schema;
    }

    static Schema<Object> enumerated(String description, List<String> values) {
        Schema<Object> schema = schema("string", description);
        schema.setEnum(List.copyOf(values));
        return schema;
    }

    private static Schema<Object> uuid() {
        Schema<Object> schema = schema("string", null);
        schema.setFormat("uuid");
        return schema;
    }
}

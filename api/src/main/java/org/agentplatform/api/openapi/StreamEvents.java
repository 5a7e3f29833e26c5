package org.agentplatform.api.openapi;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Schema;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.agentplatform.kernel.operation.EffectState;
import org.agentplatform.kernel.operation.OperationStatus;
import org.agentplatform.kernel.task.TaskStatus;

/**
 * What each frame of the SSE streams carries, for the document: one schema per kind of frame (its {@code data:} JSON),
 * and per stream the map from {@code event:} name to that schema, as the media type's {@value #EXTENSION} extension
 * ({@code "operation.*"} stands for every event name with that prefix). The data is written by {@code TaskStream},
 * {@code ConversationStream}, {@code ChannelStream} and {@code OperationStream}; the test client validates every frame it
 * reads against these schemas, so the two cannot drift apart.
 */
final class StreamEvents {

    static final String EXTENSION = "x-sse-events";
    private static final List<String> MESSAGE_KINDS = List.of("user_message", "agent_message", "agent_reply_delta", "agent_thought_chunk",
            "agent_message_chunk");

    private StreamEvents() {
    }

    /** Adds the frames' schemas to the document's components. */
    static void addSchemas(Components components) {
        List<String> statuses = Arrays.stream(TaskStatus.values()).map(TaskStatus::wireName).toList();
        components.addSchemas("TaskStatusEvent", object("A task's status changed (`event: task_status`); the same JSON as the webhook payload",
                properties("type", constant("task_status"), "task_id", string(), "context_id", string(), "status", enumerated(statuses),
                        "final", bool(), "timestamp", dateTime()),
                List.of("type", "task_id", "context_id", "status", "final", "timestamp")));
        components.addSchemas("TaskMessageEvent", object("A message of the task's log, or a chunk of one as it streams",
                withAttachments(properties("type", enumerated(MESSAGE_KINDS), "task_id", string(), "context_id", string(), "turn", integer(),
                        "role", string(), "text", string(), "timestamp", dateTime())),
                List.of("type", "task_id", "context_id", "turn", "role", "text", "timestamp")));
        Map<String, Schema<Object>> conversationStatus = properties("type", enumerated(List.of("conversation_status",
                        "turn_status")), "conversation_id", string(), "context_id", string(), "turn", integer(),
                "status", enumerated(concat(statuses, List.of("open", "closed"))), "final", bool(), "timestamp", dateTime());
        conversationStatus.put("message_id", string());
        conversationStatus.put("code", nullable(string(), "the failure's code; null when the agent itself reported the failure"));
        conversationStatus.put("message", string());
        conversationStatus.put("reason", nullable(string(), "why the turn was canceled, as the caller said"));
        conversationStatus.put("unanswered", array(string(), "the messages a close left without a turn"));
        components.addSchemas("ConversationStatusEvent", object("The conversation opened or closed, or a turn started or ended",
                conversationStatus, List.of("type", "conversation_id", "context_id", "turn", "status", "final", "timestamp")));
        Map<String, Schema<Object>> conversationMessage = withAttachments(properties("type", enumerated(MESSAGE_KINDS), "conversation_id", string(),
                "context_id", string(), "turn", integer(), "role", string(), "text", string(), "timestamp", dateTime()));
        conversationMessage.put("message_id", string());
        components.addSchemas("ConversationMessageEvent", object("A message of the conversation's log, or a chunk of one as it streams",
                conversationMessage, List.of("type", "conversation_id", "context_id", "turn", "role", "text", "timestamp")));
        components.addSchemas("StreamErrorEvent", object("The stream's task ended in error (`event: error`), as the blocking call would answer",
                properties("type", constant("error"), "code", string(), "status_code", integer(), "message", string()),
                List.of("type", "code", "status_code", "message")));
        components.addSchemas("StreamDoneEvent", object("The stream's last frame (`event: done`)",
                properties("type", constant("done"), "text", nullable(string(), "the agent's latest reply"), "context_id", string(),
                        "is_error", bool(), "error", nullable(string(), null), "code", nullable(string(), null)),
                List.of("type", "text", "context_id", "is_error", "error", "code")));
        components.addSchemas("BackfillTruncatedEvent", object("The resume point is older than the chunks kept: rows from the oldest kept",
                properties("type", constant("backfill_truncated"), "oldest_redis_offset", integer(), "requested_offset", integer()),
                List.of("type", "oldest_redis_offset", "requested_offset")));
        Map<String, Schema<Object>> operation = properties("operationId", string(), "instanceId", string(),
                "sequence", string(), "cursor", string(), "type", string(), "occurredAt", dateTime(),
                "status", enumerated(Arrays.stream(OperationStatus.values()).map(OperationStatus::wireName).toList()),
                "effectState", enumerated(Arrays.stream(EffectState.values()).map(EffectState::wireName).toList()),
                "terminal", bool());
        Schema<Object> data = new Schema<>();
        data.setSpecVersion(SpecVersion.V31);
        data.setDescription("what the event says (its result, its error), or null");
        operation.put("data", data);
        components.addSchemas("OperationStreamEvent", object("A runtime operation's event (`event:` its type, `operation.<status>`)", operation,
                List.copyOf(operation.keySet())));
    }

    /** The inbox's stream: a task's view per change, never ending. */
    static final String INBOX = "/api/v1/tasks/events";

    /** The events of the stream at {@code path} (the inbox's, a task's, a conversation's or an operation's), by {@code event:} name. */
    static Map<String, Schema<Object>> of(String path) {
        Map<String, Schema<Object>> events = new LinkedHashMap<>();
        if (path.equals(INBOX)) {
            events.put("task", OpenApiConfiguration.ref("TaskView"));
            return events;
        }
        if (path.contains("/operations/")) {
            events.put("operation.*", OpenApiConfiguration.ref("OperationStreamEvent"));
            return events;
        }
        boolean task = path.contains("/tasks/");
        for (String kind : MESSAGE_KINDS) {
            events.put(kind, OpenApiConfiguration.ref(task ? "TaskMessageEvent" : "ConversationMessageEvent"));
        }
        if (task) {
            events.put("task_status", OpenApiConfiguration.ref("TaskStatusEvent"));
        } else {
            events.put("conversation_status", OpenApiConfiguration.ref("ConversationStatusEvent"));
            events.put("turn_status", OpenApiConfiguration.ref("ConversationStatusEvent"));
        }
        events.put("backfill_truncated", OpenApiConfiguration.ref("BackfillTruncatedEvent"));
        events.put("error", OpenApiConfiguration.ref("StreamErrorEvent"));
        events.put("done", OpenApiConfiguration.ref("StreamDoneEvent"));
        return events;
    }

    private static Map<String, Schema<Object>> withAttachments(Map<String, Schema<Object>> properties) {
        Map<String, Schema<Object>> with = new LinkedHashMap<>(properties);
        Schema<Object> item = schema("object");
        item.setDescription("an attached file");
        with.put("attachments", array(item, "the message's files (absent when none)"));
        return with;
    }

    /** The properties in the order given (the document's text is the same on every build). */
    @SuppressWarnings("unchecked")
    private static Map<String, Schema<Object>> properties(Object... namesAndSchemas) {
        Map<String, Schema<Object>> properties = new LinkedHashMap<>();
        for (int index = 0; index < namesAndSchemas.length; index += 2) {
            properties.put((String) namesAndSchemas[index], (Schema<Object>) namesAndSchemas[index + 1]);
        }
        return properties;
    }

    private static Schema<Object> object(String description, Map<String, Schema<Object>> properties, List<String> required) {
        Schema<Object> object = schema("object");
        object.setDescription(description);
        properties.forEach(object::addProperty);
        object.setRequired(required);
        object.setAdditionalProperties(false);
        return object;
    }

    private static Schema<Object> schema(String type) {
        return OpenApiConfiguration.schema(type, null);
    }

    private static Schema<Object> string() {
        return schema("string");
    }

    private static Schema<Object> integer() {
        return schema("integer");
    }

    private static Schema<Object> bool() {
        return schema("boolean");
    }

    private static Schema<Object> dateTime() {
        Schema<Object> schema = string();
        schema.setFormat("date-time");
        return schema;
    }

    private static Schema<Object> constant(String value) {
        return enumerated(List.of(value));
    }

    private static Schema<Object> enumerated(List<String> values) {
        return OpenApiConfiguration.enumerated(null, values);
    }

    private static Schema<Object> nullable(Schema<Object> schema, String description) {
        schema.setTypes(new LinkedHashSet<>(List.of(schema.getTypes().iterator().next(), "null")));
        schema.setDescription(description);
        return schema;
    }

    private static Schema<Object> array(Schema<Object> items, String description) {
        Schema<Object> array = schema("array");
        array.setItems(items);
        array.setDescription(description);
        return array;
    }

    private static List<String> concat(List<String> first, List<String> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }
}

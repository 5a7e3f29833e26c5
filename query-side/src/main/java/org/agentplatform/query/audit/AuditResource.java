package org.agentplatform.query.audit;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The resource types of the audit history, and the aggregate types (as the event store names them) they stand for. */
public final class AuditResource {

    public static final String TASK = "task";
    public static final String OPERATION = "operation";
    public static final String DELIVERY = "delivery";
    public static final String WEBHOOK = "webhook";
    public static final String INSTANCE = "instance";
    public static final String AGENT = "agent";
    public static final String CONVERSATION = "conversation";
    public static final String TERMINAL = "terminal";
    /** The owner itself: the erasure of its content ({@code OwnerContentErased}). */
    public static final String OWNER = "owner";

    public static final Set<String> TYPES = Set.of(TASK, OPERATION, DELIVERY, WEBHOOK, INSTANCE, AGENT, CONVERSATION, TERMINAL, OWNER);

    private static final Map<String, String> BY_AGGREGATE_TYPE = Map.of(
            "Task", TASK,
            "RuntimeOperation", OPERATION,
            "WebhookDelivery", DELIVERY,
            "Webhook", WEBHOOK,
            "Instance", INSTANCE,
            "Agent", AGENT,
            "Conversation", CONVERSATION,
            "Terminal", TERMINAL);

    private AuditResource() {
    }

    /** The resource type of an aggregate type; an unknown one is named in lower case. */
    public static String ofAggregateType(String aggregateType) {
        return BY_AGGREGATE_TYPE.getOrDefault(aggregateType, aggregateType.toLowerCase(java.util.Locale.ROOT));
    }

    public static Optional<String> parse(String wireName) {
        return TYPES.contains(wireName) ? Optional.of(wireName) : Optional.empty();
    }
}

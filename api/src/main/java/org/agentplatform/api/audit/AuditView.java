package org.agentplatform.api.audit;

import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.agentplatform.api.web.SealedTexts;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.query.audit.AuditTrail;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An event as the history shows it: where it is (global index, chain position), of what (resource type and id, the
 * resource's sequence), what it is (its type, its data as stored) and who caused it (actor, request id, the event it
 * answers). The export adds what re-checks its link: the stored columns (the binary ones in base64) and the links.
 */
final class AuditView {

    private AuditView() {
    }

    /** {@code open} opens the owner's sealed texts in the event's data (the stored bytes the export adds stay sealed). */
    static Map<String, Object> event(AuditTrail.Entry entry, JsonMapper json, UnaryOperator<String> open) {
        JsonNode metaData = entry.metaData() == null ? json.createObjectNode() : json.readTree(entry.metaData());
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("global_index", entry.globalIndex());
        view.put("position", entry.position());
        view.put("resource_type", entry.resourceType());
        view.put("resource_id", entry.resourceId());
        view.put("sequence", entry.aggregateType() == null ? null : entry.sequenceNumber());
        view.put("type", simpleName(entry.payloadType()));
        view.put("occurred_at", entry.timeStamp());
        view.put("actor", text(metaData, AuditMetadata.ACTOR, text(metaData, AuditMetadata.CREDENTIAL_ID, null)));
        view.put("request_id", text(metaData, AuditMetadata.REQUEST_ID, null));
        view.put("caused_by", causedBy(text(metaData, AuditMetadata.CAUSED_BY, null)));
        view.put("data", SealedTexts.opened(json.readTree(entry.payload()), open));
        return view;
    }

    static Map<String, Object> exported(AuditTrail.Entry entry, JsonMapper json, UnaryOperator<String> open) {
        Map<String, Object> view = event(entry, json, open);
        HexFormat hex = HexFormat.of();
        Base64.Encoder base64 = Base64.getEncoder();
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("global_index", entry.globalIndex());
        stored.put("event_identifier", entry.eventIdentifier());
        stored.put("aggregate_identifier", entry.aggregateIdentifier());
        stored.put("sequence_number", entry.sequenceNumber());
        stored.put("type", entry.aggregateType());
        stored.put("time_stamp", entry.timeStamp());
        stored.put("payload_type", entry.payloadType());
        stored.put("payload_revision", entry.payloadRevision());
        stored.put("payload", base64.encodeToString(entry.payload()));
        stored.put("meta_data", entry.metaData() == null ? null : base64.encodeToString(entry.metaData()));
        view.put("stored", stored);
        Map<String, Object> chain = new LinkedHashMap<>();
        chain.put("position", entry.position());
        chain.put("previous_link", entry.previousLink() == null ? hex.formatHex(new byte[32]) : hex.formatHex(entry.previousLink()));
        chain.put("link", hex.formatHex(entry.link()));
        view.put("chain", chain);
        return view;
    }

    /** {@code org.agentplatform.kernel.task.TaskEvent$TaskCreated} -> {@code TaskCreated}. */
    static String simpleName(String payloadType) {
        int cut = Math.max(payloadType.lastIndexOf('.'), payloadType.lastIndexOf('$'));
        return payloadType.substring(cut + 1);
    }

    private static String text(JsonNode node, String field, String fallback) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? fallback : value.asString();
    }

    /** A global index when the cause is an event of the store, else (an event not read from the store) its identifier. */
    private static Object causedBy(String cause) {
        if (cause == null) {
            return null;
        }
        try {
            return Long.parseLong(cause);
        } catch (NumberFormatException notAnIndex) {
            return cause;
        }
    }
}

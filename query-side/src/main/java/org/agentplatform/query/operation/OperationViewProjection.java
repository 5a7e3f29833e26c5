package org.agentplatform.query.operation;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.agentplatform.kernel.operation.OperationError;
import org.agentplatform.kernel.operation.OperationEvent.OperationCancelRequested;
import org.agentplatform.kernel.operation.OperationEvent.OperationCancelled;
import org.agentplatform.kernel.operation.OperationEvent.OperationExpired;
import org.agentplatform.kernel.operation.OperationEvent.OperationFailed;
import org.agentplatform.kernel.operation.OperationEvent.OperationOutcomeUnknown;
import org.agentplatform.kernel.operation.OperationEvent.OperationProjectionBlocked;
import org.agentplatform.kernel.operation.OperationEvent.OperationProjectionPending;
import org.agentplatform.kernel.operation.OperationEvent.OperationQueued;
import org.agentplatform.kernel.operation.OperationEvent.OperationRuntimeCommitted;
import org.agentplatform.kernel.operation.OperationEvent.OperationStarted;
import org.agentplatform.kernel.operation.OperationEvent.OperationSucceeded;
import org.agentplatform.kernel.operation.OperationEvent;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationProjection;
import org.agentplatform.kernel.operation.ProjectionState;
import org.agentplatform.query.JsonColumns;
import org.agentplatform.query.SqlTime;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Operation events into the snapshot ({@code operation_view}) and the durable event stream
 * ({@code operation_event}, one row per event, keyed by the aggregate sequence). Each event also
 * notifies {@value #CHANNEL} so live streams wake; the rows stay the truth.
 */
@ProcessingGroup(OperationViewProjection.GROUP)
public class OperationViewProjection {

    public static final String GROUP = "operation-projection-view";
    public static final String CHANNEL = "operation_events";

    private final JdbcTemplate jdbc;

    public OperationViewProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(OperationQueued event, @SequenceNumber long sequence, @Timestamp Instant at) {
        OperationProjection projection = event.method().isProjected() ? OperationProjection.PENDING : OperationProjection.NOT_APPLICABLE;
        jdbc.update("INSERT INTO operation_view (id, instance_id, owner_id, method, status, sequence, params, resource_key,"
                        + " request_digest, request_id, deadline, projection, created_at, updated_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.operationId().value(), event.instanceId().value(), event.ownerId().value(), event.method().wireName(),
                event.status().wireName(), sequence, JsonColumns.write(event.params()), event.resourceKey(), event.requestDigest(),
                event.requestId(), SqlTime.of(event.deadline()), JsonColumns.write(projection(projection)), SqlTime.of(at),
                SqlTime.of(at));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("method", event.method().wireName());
        data.put("capability", event.method().capability().wireName());
        data.put("deadline", event.deadline().toString());
        record(event, "queued", data, sequence, at);
    }

    @EventHandler
    void on(OperationStarted event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event, "runtime_epoch = ?", sequence, at, event.runtimeEpoch());
        record(event, "running", Map.of("runtimeEpoch", Long.toString(event.runtimeEpoch()),
                "answerDeadline", event.answerDeadline().toString()), sequence, at);
    }

    @EventHandler
    void on(OperationCancelRequested event, @SequenceNumber long sequence, @Timestamp Instant at) {
        Map<String, Object> cancelRequest = new LinkedHashMap<>();
        cancelRequest.put("requestedBy", event.requestedBy());
        cancelRequest.put("requestedAt", at.toString());
        cancelRequest.put("reason", event.reason());
        change(event, "cancel_request = ?::jsonb", sequence, at, JsonColumns.write(cancelRequest));
        record(event, "cancel_requested", Map.of("cancelRequest", cancelRequest), sequence, at);
    }

    @EventHandler
    void on(OperationCancelled event, @SequenceNumber long sequence, @Timestamp Instant at) {
        failure(event, "cancelled", event.error(), sequence, at);
    }

    @EventHandler
    void on(OperationExpired event, @SequenceNumber long sequence, @Timestamp Instant at) {
        failure(event, "expired", event.error(), sequence, at);
    }

    @EventHandler
    void on(OperationOutcomeUnknown event, @SequenceNumber long sequence, @Timestamp Instant at) {
        failure(event, "outcome_unknown", event.error(), sequence, at);
    }

    @EventHandler
    void on(OperationRuntimeCommitted event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event, "result = ?::jsonb", sequence, at, JsonColumns.write(event.result()));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("result", event.result());
        record(event, "runtime_committed", data, sequence, at);
    }

    @EventHandler
    void on(OperationProjectionPending event, @SequenceNumber long sequence, @Timestamp Instant at) {
        Map<String, Object> projection = projection(OperationProjection.PENDING);
        change(event, "projection = ?::jsonb", sequence, at, JsonColumns.write(projection));
        record(event, "projection_pending", Map.of("projection", projection), sequence, at);
    }

    @EventHandler
    void on(OperationSucceeded event, @SequenceNumber long sequence, @Timestamp Instant at) {
        Map<String, Object> projection = projection(event.projection());
        change(event, "projection = ?::jsonb", sequence, at, JsonColumns.write(projection));
        record(event, "succeeded", Map.of("projection", projection), sequence, at);
    }

    @EventHandler
    void on(OperationProjectionBlocked event, @SequenceNumber long sequence, @Timestamp Instant at) {
        Map<String, Object> projection = projection(new OperationProjection(null, ProjectionState.BLOCKED, null));
        Map<String, Object> error = error(event.operationId(), event.error());
        change(event, "projection = ?::jsonb, error = ?::jsonb", sequence, at, JsonColumns.write(projection), JsonColumns.write(error));
        record(event, "projection_blocked", Map.of("projection", projection, "error", error), sequence, at);
    }

    @EventHandler
    void on(OperationFailed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        Map<String, Object> error = error(event.operationId(), event.error());
        change(event, "error = ?::jsonb, result = ?::jsonb", sequence, at, JsonColumns.write(error), JsonColumns.write(event.result()));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("error", error);
        data.put("result", event.result());
        record(event, "failed", data, sequence, at);
    }

    private void failure(OperationEvent event, String type, OperationError operationError, long sequence, Instant at) {
        Map<String, Object> error = error(event.operationId(), operationError);
        change(event, "error = ?::jsonb", sequence, at, JsonColumns.write(error));
        record(event, type, Map.of("error", error), sequence, at);
    }

    /** Sets the status, sequence and {@code assignments}, unless the row already saw this event (a replay). */
    private void change(OperationEvent event, String assignments, long sequence, Instant at, Object... values) {
        Object[] arguments = new Object[values.length + 5];
        System.arraycopy(values, 0, arguments, 0, values.length);
        arguments[values.length] = event.status().wireName();
        arguments[values.length + 1] = sequence;
        arguments[values.length + 2] = SqlTime.of(at);
        arguments[values.length + 3] = event.operationId().value();
        arguments[values.length + 4] = sequence;
        jdbc.update("UPDATE operation_view SET " + assignments + ", status = ?, sequence = ?, updated_at = ?"
                + " WHERE id = ? AND sequence < ?", arguments);
    }

    private void record(OperationEvent event, String type, Map<String, Object> data, long sequence, Instant at) {
        jdbc.update("INSERT INTO operation_event (operation_id, sequence, type, status, data, occurred_at)"
                        + " VALUES (?, ?, ?, ?, ?::jsonb, ?) ON CONFLICT DO NOTHING",
                event.operationId().value(), sequence, "operation." + type, event.status().wireName(), JsonColumns.write(data),
                SqlTime.of(at));
        jdbc.query("SELECT pg_notify(?, ?)", row -> null, CHANNEL, event.operationId() + ":" + sequence);
    }

    /** The snapshot's {@code projection} object. */
    static Map<String, Object> projection(OperationProjection projection) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("revision", projection.revision());
        json.put("state", projection.state().wireName());
        json.put("platformAgentId", projection.platformAgentId() == null ? null : projection.platformAgentId().toString());
        return json;
    }

    /** The snapshot's {@code error} object, with every field of the contract's table. */
    static Map<String, Object> error(OperationId operation, OperationError error) {
        OperationError.Context context = error.context() == null ? OperationError.Context.EMPTY : error.context();
        Map<String, Object> contextJson = new LinkedHashMap<>();
        contextJson.put("activeRuntimeEpoch", context.activeRuntimeEpoch());
        contextJson.put("projectionRevision", context.projectionRevision());
        contextJson.put("retryAfterMs", context.retryAfterMs());
        contextJson.put("expectedContractRevision", context.expectedContractRevision());
        contextJson.put("resourceId", context.resourceId());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("code", error.code());
        json.put("message", error.message());
        json.put("operationId", operation.toString());
        json.put("effectState", error.effectState().wireName());
        json.put("retryMode", error.retryMode());
        json.put("requestId", error.requestId());
        json.put("context", contextJson);
        return json;
    }
}

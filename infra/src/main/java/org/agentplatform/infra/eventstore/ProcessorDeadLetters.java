package org.agentplatform.infra.eventstore;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.DeadLetterSchema;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.Decisions;
import org.axonframework.messaging.deadletter.EnqueueDecision;
import org.axonframework.messaging.deadletter.ThrowableCause;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.NestedRuntimeException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The dead-letter queues of the event processors: where they live ({@code dead_letter_entry}, V10), which
 * failures park an event, and the channel the command line uses to ask for a retry.
 * <p>
 * A failure of the handler itself (a constraint, a bug, data it cannot take) parks the event and every later
 * event of its aggregate; the processor goes on with every other aggregate. A failure of the database under it
 * (connection lost, deadlock, serialization conflict, shutdown) would hit any event, so it is not the event's
 * fault: the batch is rolled back and retried instead, as before.
 */
public final class ProcessorDeadLetters {

    /** NOTIFY channel of {@code deadletters retry}; the payload is {@link #RETRY_KEY}. */
    public static final String RETRY_CHANNEL = "dead_letter_retry";
    public static final String RETRY_KEY = "retry";

    /** A retry asked for: its row in {@code dead_letter_retry}, and when (the database's clock). */
    public record QueuedRetry(long id, Instant requestedAt) {
    }

    static final DeadLetterSchema SCHEMA = DeadLetterSchema.builder()
            .deadLetterTable("dead_letter_entry")
            .deadLetterIdentifierColumn("dead_letter_id")
            .processingGroupColumn("processing_group")
            .sequenceIdentifierColumn("sequence_identifier")
            .sequenceIndexColumn("sequence_index")
            .messageTypeColumn("message_type")
            .eventIdentifierColumn("event_identifier")
            .timestampColumn("time_stamp")
            .payloadTypeColumn("payload_type")
            .payloadRevisionColumn("payload_revision")
            .payloadColumn("payload")
            .metaDataColumn("meta_data")
            .aggregateTypeColumn("type")
            .aggregateIdentifierColumn("aggregate_identifier")
            .sequenceNumberColumn("sequence_number")
            .tokenTypeColumn("token_type")
            .tokenColumn("token")
            .enqueuedAtColumn("enqueued_at")
            .lastTouchedColumn("last_touched")
            .processingStartedColumn("processing_started")
            .causeTypeColumn("cause_type")
            .causeMessageColumn("cause_message")
            .diagnosticsColumn("diagnostics")
            .build();

    /**
     * Queues a retry of the parked events of {@code processingGroup} (null: of every group) and announces it, so that
     * {@link ProcessorDeadLetterRetries} on every node applies it (the command line's {@code deadletters retry}, and the API's).
     */
    public static QueuedRetry queueRetry(JdbcTemplate jdbc, @Nullable String processingGroup) {
        QueuedRetry queued = jdbc.queryForObject("INSERT INTO dead_letter_retry (processing_group) VALUES (?) RETURNING id, requested_at",
                (row, number) -> new QueuedRetry(row.getLong("id"), row.getTimestamp("requested_at").toInstant()), processingGroup);
        jdbc.execute("NOTIFY " + RETRY_CHANNEL + ", '" + RETRY_KEY + "'");
        return queued;
    }

    /** SQLSTATE classes of a database in trouble rather than of a bad event. */
    private static final List<String> TRANSIENT_STATES = List.of(
            "08", // connection exception
            "40", // transaction rollback: serialization failure, deadlock
            "53", // insufficient resources
            "57P", // operator intervention: shutdown, crash
            "55P03", // lock not available
            "25P02"); // the transaction was already aborted by an earlier statement: retried with savepoints

    private ProcessorDeadLetters() {
    }

    /**
     * The processing groups of this application's event handlers (sagas keep their own error handling), but those marked
     * {@link NeverParked} (the audit chain's), which must take every event in order and so retry a failing batch instead.
     */
    public static Set<String> processingGroups(ListableBeanFactory beans) {
        Set<String> groups = new TreeSet<>();
        for (String name : beans.getBeanNamesForAnnotation(ProcessingGroup.class)) {
            ProcessingGroup group = beans.findAnnotationOnBean(name, ProcessingGroup.class);
            if (group != null && beans.findAnnotationOnBean(name, NeverParked.class) == null) {
                groups.add(group.value());
            }
        }
        return groups;
    }

    /** The enqueue policy: park the event, or (the database's fault) fail the batch so it is retried. */
    static EnqueueDecision<EventMessage<?>> decide(DeadLetter<? extends EventMessage<?>> letter, Throwable cause) {
        if (isTransient(cause)) {
            throw new RetryBatch(cause);
        }
        return Decisions.enqueue(described(cause));
    }

    /**
     * The cause as an operator reads it: the database's own message first (Spring's wrapper puts the whole statement
     * before it, and a long statement would push it past the stored length), then the wrapper's.
     */
    static ThrowableCause described(Throwable cause) {
        Throwable specific = cause instanceof NestedRuntimeException nested ? nested.getMostSpecificCause() : cause;
        String message = specific == cause ? String.valueOf(cause.getMessage())
                : specific.getMessage() + " (" + cause.getMessage() + ")";
        return new ThrowableCause(cause.getClass().getName(), message.length() <= ThrowableCause.TRUNCATED_MESSAGE_SIZE ? message
                : message.substring(0, ThrowableCause.TRUNCATED_MESSAGE_SIZE));
    }

    static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof TransientDataAccessException || cause instanceof RecoverableDataAccessException
                    || cause instanceof CannotGetJdbcConnectionException || cause instanceof SQLTransientException
                    || cause instanceof SQLRecoverableException) {
                return true;
            }
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && TRANSIENT_STATES.stream().anyMatch(sql.getSQLState()::startsWith)) {
                return true;
            }
        }
        return false;
    }

    /** Thrown by the policy to roll the batch back and retry it: the failure was not the event's. */
    static final class RetryBatch extends RuntimeException {

        RetryBatch(Throwable cause) {
            super("transient failure; the batch is retried: " + cause.getMessage(), cause);
        }
    }
}

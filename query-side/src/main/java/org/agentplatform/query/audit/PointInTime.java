package org.agentplatform.query.audit;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.query.JdbcReadable;
import org.agentplatform.query.RowQuery;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelReads;
import org.agentplatform.query.instance.InstanceRecord;
import org.agentplatform.query.instance.R2dbcInstanceReads;
import org.agentplatform.query.operation.OperationRecord;
import org.agentplatform.query.operation.R2dbcOperationReads;
import org.agentplatform.query.replay.ProjectionFold;
import org.agentplatform.query.replay.ReadModel;
import org.agentplatform.query.replay.StoredEvents;
import org.agentplatform.query.task.R2dbcTaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.agentplatform.query.webhook.DeliveryRecord;
import org.agentplatform.query.webhook.R2dbcWebhookReads;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A resource as it stood at an instant: its events up to then, folded by its read model's own projection into copies
 * of the read model's tables ({@link ProjectionFold}), read with the same query and row mapping as the live read,
 * and rolled back. Empty when the resource did not exist yet.
 */
public final class PointInTime {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final StoredEvents events;
    private final ReadModel tasks;
    private final ReadModel operations;
    private final ReadModel deliveries;
    private final ReadModel instances;

    public PointInTime(JdbcTemplate jdbc, TransactionTemplate transactions, StoredEvents events, ReadModel tasks, ReadModel operations,
            ReadModel deliveries, ReadModel instances) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.events = events;
        this.tasks = tasks;
        this.operations = operations;
        this.deliveries = deliveries;
        this.instances = instances;
    }

    /** A task and its log's messages and statuses as they were. */
    public record TaskAt(TaskRecord task, List<ChannelEntry> log) {
    }

    public Optional<TaskAt> task(TaskId task, Instant at) {
        return fold(tasks, task.value(), at, named -> {
            Optional<TaskRecord> found = one(named, R2dbcTaskReads.BY_ID, task.value());
            return found.map(record -> new TaskAt(record, all(named, ChannelReads.MESSAGES_OF, task.value())));
        });
    }

    public Optional<OperationRecord> operation(OperationId operation, Instant at) {
        return fold(operations, operation.value(), at, named -> one(named, R2dbcOperationReads.BY_ID, operation.value()));
    }

    public Optional<DeliveryRecord> delivery(DeliveryId delivery, Instant at) {
        return fold(deliveries, delivery.value(), at, named -> one(named, R2dbcWebhookReads.DELIVERY_BY_ID, delivery.value()));
    }

    public Optional<InstanceRecord> instance(InstanceId instance, Instant at) {
        return fold(instances, instance.value(), at, named -> one(named, R2dbcInstanceReads.BY_ID, instance.value()));
    }

    private <T> Optional<T> fold(ReadModel model, UUID aggregate, Instant at,
            Function<NamedParameterJdbcTemplate, Optional<T>> read) {
        List<TrackedEventMessage<?>> history = events.ofAggregate(aggregate.toString(), at);
        if (history.isEmpty()) {
            return Optional.empty();
        }
        return transactions.execute(status -> {
            status.setRollbackOnly();
            ProjectionFold fold = new ProjectionFold(jdbc, model);
            fold.shadow();
            fold.apply(history);
            return read.apply(new NamedParameterJdbcTemplate(jdbc));
        });
    }

    private static <T> Optional<T> one(NamedParameterJdbcTemplate named, RowQuery<T> query, UUID id) {
        return all(named, query, id).stream().findFirst();
    }

    private static <T> List<T> all(NamedParameterJdbcTemplate named, RowQuery<T> query, UUID id) {
        return named.query(query.sql(), Map.of("id", id, "since", -1L), (row, n) -> query.row().apply(new JdbcReadable(row)));
    }
}

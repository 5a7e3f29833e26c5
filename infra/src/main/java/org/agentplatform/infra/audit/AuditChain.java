package org.agentplatform.infra.audit;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.agentplatform.infra.eventstore.NeverParked;
import org.agentplatform.infra.replay.StoredEvent;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.kernel.audit.MerkleTree;
import org.agentplatform.kernel.control.ControlActionPerformed;
import org.agentplatform.kernel.conversation.ConversationEvent.ConversationOpened;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.OwnerContentErased;
import org.agentplatform.kernel.task.TaskEvent.TaskCreated;
import org.agentplatform.query.audit.AuditResource;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Extends the audit chain ({@code audit_event}) and its Merkle tree ({@link AuditTree}) with every event, right after
 * it commits: one processor with one segment takes the events in order, and each batch costs five statements whatever
 * its size (the events' stored rows, the chain's head, the new links, the tree's right edge, its new nodes), plus one
 * for the owners of resources it has not seen yet. An event already chained (a batch taken again after a failure) is
 * skipped, so the chain never forks. Each link also records whose the event is and of which resource, for the
 * history API. The group has no dead-letter queue: a chain with a parked event would no longer be a chain, so a
 * failing batch is retried, and health shows it.
 */
@ProcessingGroup(AuditChain.GROUP)
@NeverParked
public class AuditChain {

    public static final String GROUP = "audit-chain";

    private static final String BATCH = AuditChain.class.getName() + ".batch";
    private static final int KNOWN_RESOURCES = 100_000;

    private final JdbcTemplate jdbc;
    private final AuditTree tree;
    /** Resource id -> owner, of resources seen lately (most events are of a resource created moments before). */
    private final Map<String, UUID> owners = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, UUID> eldest) {
            return size() > KNOWN_RESOURCES;
        }
    };

    public AuditChain(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.tree = new AuditTree(jdbc);
    }

    /** One event to chain: its index, its resource and, when the event says, the resource's owner. */
    private record Pending(long globalIndex, String resourceType, String resourceId, UUID owner) {
    }

    @EventHandler
    void on(Object payload, EventMessage<?> event, @MetaDataValue(GlobalIndex.KEY) Long index) {
        if (index == null) {
            throw new IllegalStateException("An event without its global index cannot be chained: " + event.getIdentifier());
        }
        String resourceType = null;
        String resourceId = null;
        if (event instanceof DomainEventMessage<?> domain && domain.getType() != null) {
            resourceType = AuditResource.ofAggregateType(domain.getType());
            resourceId = domain.getAggregateIdentifier();
        } else if (payload instanceof ControlActionPerformed action) {
            resourceType = AuditResource.INSTANCE;
            resourceId = action.instanceId().toString();
        } else if (payload instanceof OwnerContentErased erased) {
            resourceType = AuditResource.OWNER;
            resourceId = erased.ownerId().toString();
        }
        batch().add(new Pending(index, resourceType, resourceId, ownerIn(payload)));
    }

    /**
     * The owner an event names: most events have an {@code ownerId}, tasks and conversations in their reference; the
     * others are of a resource whose owner an earlier event named.
     */
    private static UUID ownerIn(Object payload) {
        return switch (payload) {
            case TaskCreated created -> created.task().ownerId().value();
            case ConversationOpened opened -> opened.conversation().ownerId().value();
            case Record event -> OWNER_ACCESSOR.get(event.getClass()).map(accessor -> {
                try {
                    return accessor.invoke(event) instanceof OwnerId owner ? owner.value() : null;
                } catch (ReflectiveOperationException unreadable) {
                    return null;
                }
            }).orElse(null);
            default -> null;
        };
    }

    /** An event record's {@code ownerId} component, if it has one. */
    private static final ClassValue<Optional<Method>> OWNER_ACCESSOR = new ClassValue<>() {
        @Override
        protected Optional<Method> computeValue(Class<?> type) {
            return Arrays.stream(type.getRecordComponents())
                    .filter(component -> component.getName().equals("ownerId") && component.getType() == OwnerId.class)
                    .map(RecordComponent::getAccessor)
                    .findFirst();
        }
    };

    private List<Pending> batch() {
        UnitOfWork<?> unitOfWork = CurrentUnitOfWork.get().root();
        return unitOfWork.getOrComputeResource(BATCH, key -> {
            List<Pending> pending = new ArrayList<>();
            unitOfWork.onPrepareCommit(committing -> chain(pending));
            return pending;
        });
    }

    private void chain(List<Pending> pending) {
        Map<Long, StoredEvent> stored = stored(pending);
        if (stored.isEmpty()) {
            return;
        }
        Map<String, UUID> resolved = resolveOwners(pending);
        Head head = head();
        byte[] link = head.link();
        long position = head.position();
        List<Object[]> rows = new ArrayList<>(stored.size());
        List<byte[]> leaves = new ArrayList<>(stored.size());
        for (Pending event : pending) {
            StoredEvent row = stored.get(event.globalIndex());
            if (row == null) {
                continue;
            }
            byte[] record = row.record();
            link = StoredEvent.link(link, record);
            leaves.add(MerkleTree.leafHash(record));
            position++;
            UUID owner = event.owner() != null ? event.owner() : event.resourceId() == null ? null : resolved.get(event.resourceId());
            if (owner != null && event.resourceId() != null) {
                resolved.put(event.resourceId(), owner);
            }
            rows.add(new Object[] {position, event.globalIndex(), link, owner, event.resourceType(), event.resourceId()});
        }
        jdbc.batchUpdate("INSERT INTO audit_event (position, global_index, link, owner_id, resource_type, resource_id)"
                + " VALUES (?, ?, ?, ?, ?, ?)", rows);
        tree.append(head.position(), leaves);
        synchronized (owners) {
            owners.putAll(resolved);
        }
    }

    /** The stored rows of the events not chained yet, by global index. */
    private Map<Long, StoredEvent> stored(List<Pending> pending) {
        Long[] indexes = pending.stream().map(Pending::globalIndex).toArray(Long[]::new);
        Map<Long, StoredEvent> rows = new HashMap<>();
        jdbc.query("SELECT " + StoredEvent.COLUMNS + " FROM domain_event_entry e WHERE global_index = ANY(?::bigint[])"
                + " AND NOT EXISTS (SELECT 1 FROM audit_event a WHERE a.global_index = e.global_index)", row -> {
                    StoredEvent event = StoredEvent.of(row);
                    rows.put(event.globalIndex(), event);
                }, (Object) indexes);
        return rows;
    }

    /**
     * The owners of the batch's resources: those its events name (a task's creation and its start usually share a
     * batch), then from memory, else from the chain.
     */
    private Map<String, UUID> resolveOwners(List<Pending> pending) {
        Map<String, UUID> resolved = new HashMap<>();
        for (Pending event : pending) {
            if (event.owner() != null && event.resourceId() != null) {
                resolved.putIfAbsent(event.resourceId(), event.owner());
            }
        }
        Set<String> unknown = new LinkedHashSet<>();
        synchronized (owners) {
            for (Pending event : pending) {
                if (event.owner() == null && event.resourceId() != null && !resolved.containsKey(event.resourceId())) {
                    UUID owner = owners.get(event.resourceId());
                    if (owner != null) {
                        resolved.put(event.resourceId(), owner);
                    } else {
                        unknown.add(event.resourceId());
                    }
                }
            }
        }
        if (!unknown.isEmpty()) {
            jdbc.query("SELECT DISTINCT ON (resource_id) resource_id, owner_id FROM audit_event"
                    + " WHERE resource_id = ANY(?::text[]) AND owner_id IS NOT NULL ORDER BY resource_id, position",
                    row -> {
                        resolved.put(row.getString("resource_id"), row.getObject("owner_id", UUID.class));
                    }, (Object) unknown.toArray(String[]::new));
        }
        return resolved;
    }

    private record Head(long position, byte[] link) {
    }

    private Head head() {
        List<Head> heads = jdbc.query("SELECT position, link FROM audit_event ORDER BY position DESC LIMIT 1",
                (row, n) -> new Head(row.getLong("position"), row.getBytes("link")));
        return heads.isEmpty() ? new Head(0, StoredEvent.GENESIS) : heads.getFirst();
    }
}

package org.agentplatform.infra.eventstore;

import java.util.HashMap;
import java.util.Map;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.GlobalIndex;
import org.axonframework.deadline.DeadlineMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;

/**
 * What every message sent or published while handling another carries over from it (Axon merges it into each new
 * message's metadata): the owner and the request id always; from a command, its actor and cause, so each event
 * says who did it; from an event or a deadline a process handles, the process as actor ({@code system:<processor>},
 * {@code system:deadline}) and the event it answers, so a chain of processes stays traceable to the request that
 * started it.
 */
final class WhoDidIt implements CorrelationDataProvider {

    /** How Axon's event processors name the unit of work's segment resource: {@code Processor[<name>]/SegmentId}. */
    private static final String PROCESSOR_RESOURCE = "Processor[";
    private static final String DEADLINE = "deadline";
    private static final String UNKNOWN_PROCESS = "process";

    @Override
    public Map<String, ?> correlationDataFor(Message<?> message) {
        MetaData metaData = message.getMetaData();
        Map<String, Object> data = new HashMap<>();
        copy(metaData, AuditMetadata.OWNER_ID, data);
        copy(metaData, AuditMetadata.REQUEST_ID, data);
        if (message instanceof DeadlineMessage<?>) {
            data.put(AuditMetadata.ACTOR, AuditMetadata.system(DEADLINE));
            copy(metaData, AuditMetadata.CAUSED_BY, data);
        } else if (message instanceof EventMessage<?> event) {
            data.put(AuditMetadata.ACTOR, AuditMetadata.system(processor()));
            Object index = metaData.get(GlobalIndex.KEY);
            data.put(AuditMetadata.CAUSED_BY, index != null ? index.toString() : event.getIdentifier());
        } else {
            Object actor = metaData.getOrDefault(AuditMetadata.ACTOR, metaData.get(AuditMetadata.CREDENTIAL_ID));
            data.put(AuditMetadata.ACTOR, actor != null ? actor : AuditMetadata.system(UNKNOWN_PROCESS));
            copy(metaData, AuditMetadata.CAUSED_BY, data);
        }
        return data;
    }

    private static void copy(MetaData from, String key, Map<String, Object> to) {
        Object value = from.get(key);
        if (value != null) {
            to.put(key, value);
        }
    }

    /** The event processor whose unit of work this is (its segment resource names it). */
    private static String processor() {
        if (!CurrentUnitOfWork.isStarted()) {
            return UNKNOWN_PROCESS;
        }
        for (String key : CurrentUnitOfWork.get().resources().keySet()) {
            if (key.startsWith(PROCESSOR_RESOURCE)) {
                int end = key.indexOf(']');
                if (end > PROCESSOR_RESOURCE.length()) {
                    return key.substring(PROCESSOR_RESOURCE.length(), end);
                }
            }
        }
        return UNKNOWN_PROCESS;
    }
}

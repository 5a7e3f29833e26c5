package org.agentplatform.infra.eventstore;

import java.time.Duration;
import org.agentplatform.kernel.FrameworkReplacement;
import org.agentplatform.query.WriteBatching;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.annotation.HandlerEnhancerDefinition;
import org.axonframework.messaging.annotation.MessageHandlingMember;
import org.axonframework.messaging.annotation.WrappedMessageHandlingMember;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Lets a processor park one failing event without losing its batch. A statement that fails aborts PostgreSQL's
 * whole transaction, so neither the dead letter nor the batch's other events could be written after it. Once a
 * handler has failed, and while dead letters are retried, each event handler runs inside a savepoint
 * (a nested transaction): its failure rolls back to it, and the transaction goes on. In the steady state there
 * is no failure to isolate, and no savepoint costs a round trip.
 * <p>
 * It is also the projections' {@link WriteBatching}: in the steady state their statements wait for the batch's commit
 * and go together; while failures are isolated they run in their handler, inside its savepoint. Held statements that
 * fail at the commit make the batch's retry isolate its events.
 */
@FrameworkReplacement("Axon: the dead-letter queue's retry of a processor batch (an undocumented unit-of-work resource)")
final class SavepointPerEvent implements HandlerEnhancerDefinition, WriteBatching {

    /** How long handlers keep their savepoints after a failure: long enough for the retried batch to get past it. */
    private static final long SUSPICION_NANOS = Duration.ofMinutes(2).toNanos();

    private final TransactionTemplate savepoint;
    private volatile long suspiciousUntil = System.nanoTime() - 1;

    SavepointPerEvent(PlatformTransactionManager transactions) {
        savepoint = new TransactionTemplate(transactions);
        savepoint.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
    }

    @Override
    public <T> MessageHandlingMember<T> wrapHandler(MessageHandlingMember<T> original) {
        if (AnnotationUtils.findAnnotation(original.declaringClass(), ProcessingGroup.class) == null) {
            return original; // aggregates and sagas: not dead-lettered
        }
        return new WrappedMessageHandlingMember<>(original) {
            @Override
            public Object handle(Message<?> message, T target) throws Exception {
                if (!isolating()) {
                    try {
                        return super.handle(message, target);
                    } catch (Exception | Error failure) {
                        suspiciousUntil = System.nanoTime() + SUSPICION_NANOS;
                        throw failure;
                    }
                }
                return inSavepoint(() -> super.handle(message, target));
            }
        };
    }

    @Override
    public boolean holding() {
        return !isolating();
    }

    @Override
    public void failed(RuntimeException failure) {
        suspiciousUntil = System.nanoTime() + SUSPICION_NANOS;
    }

    private boolean isolating() {
        return System.nanoTime() - suspiciousUntil < 0
                || (CurrentUnitOfWork.isStarted() && CurrentUnitOfWork.get().resources().containsKey(DeadLetter.class.getName()));
    }

    private Object inSavepoint(Handling handling) throws Exception {
        Object[] result = new Object[1];
        Exception[] failure = new Exception[1];
        savepoint.executeWithoutResult(status -> {
            try {
                result[0] = handling.handle();
            } catch (Exception handlerFailure) {
                failure[0] = handlerFailure;
                status.setRollbackOnly();
            }
        });
        if (failure[0] != null) {
            suspiciousUntil = System.nanoTime() + SUSPICION_NANOS;
            throw failure[0];
        }
        return result[0];
    }

    private interface Handling {
        Object handle() throws Exception;
    }
}

package org.agentplatform.infra.eventstore;

import org.agentplatform.kernel.FrameworkReplacement;
import org.agentplatform.kernel.GlobalIndex;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.annotation.HandlerEnhancerDefinition;
import org.axonframework.messaging.annotation.MessageHandlingMember;
import org.axonframework.messaging.annotation.WrappedMessageHandlingMember;

/**
 * Handlers take {@link GlobalIndex#KEY} as a {@code Long}. An event read from the store carries it as one; an
 * event that was parked and comes back from the dead-letter queue has had its metadata serialized, and a small
 * number comes back an {@code Integer}. This gives handlers the {@code Long} either way.
 */
@FrameworkReplacement("Axon: the handler's metadata parameter of an event back from the dead-letter queue (HandlerEnhancerDefinition)")
final class GlobalIndexAsLong implements HandlerEnhancerDefinition {

    @Override
    public <T> MessageHandlingMember<T> wrapHandler(MessageHandlingMember<T> original) {
        if (!original.canHandleMessageType(EventMessage.class)) {
            return original;
        }
        return new WrappedMessageHandlingMember<>(original) {
            @Override
            public Object handle(Message<?> message, T target) throws Exception {
                Object index = message.getMetaData().get(GlobalIndex.KEY);
                if (index instanceof Number number && !(index instanceof Long)) {
                    return super.handle(message.andMetaData(MetaData.with(GlobalIndex.KEY, number.longValue())), target);
                }
                return super.handle(message, target);
            }
        };
    }
}

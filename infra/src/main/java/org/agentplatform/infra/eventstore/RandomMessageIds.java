package org.agentplatform.infra.eventstore;

import org.agentplatform.kernel.FrameworkReplacement;
import org.agentplatform.kernel.RandomIds;
import org.axonframework.common.IdentifierFactory;

/**
 * Axon's message identifiers (every command, event and result message has one) from {@link RandomIds}: Axon's default
 * draws them from {@link java.util.UUID#randomUUID()}, whose one lock every request thread and event handler queued on.
 * Found by Axon through {@code META-INF/services/org.axonframework.common.IdentifierFactory}.
 */
@FrameworkReplacement("Axon: IdentifierFactory (META-INF/services)")
public final class RandomMessageIds extends IdentifierFactory {

    @Override
    public String generateIdentifier() {
        return RandomIds.uuid().toString();
    }
}

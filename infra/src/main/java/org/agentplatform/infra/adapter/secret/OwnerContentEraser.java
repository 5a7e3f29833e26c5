package org.agentplatform.infra.adapter.secret;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import org.agentplatform.api.identity.ContentErasure;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.OwnerContentErased;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.gateway.EventGateway;
import org.springframework.transaction.support.TransactionTemplate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Erases an owner's personal content: destroys its data keys ({@link OwnerDataKeys#erase}) and records {@link
 * OwnerContentErased} with who asked, in one transaction (an erasure is never done unrecorded, nor recorded undone). The
 * API's {@code DELETE /api/v1/owners/me/content} and the operators' {@code owners erase} both come here.
 */
public final class OwnerContentEraser implements ContentErasure {

    private final OwnerDataKeys keys;
    private final EventGateway events;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public OwnerContentEraser(OwnerDataKeys keys, EventGateway events, TransactionTemplate transactions, Clock clock) {
        this.keys = keys;
        this.events = events;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public Mono<Erased> erase(OwnerId owner, Map<String, ?> audit) {
        return Mono.fromCallable(() -> eraseNow(owner, audit)).subscribeOn(Schedulers.boundedElastic());
    }

    /** The erasure, blocking: what the CLI runs. */
    public Erased eraseNow(OwnerId owner, Map<String, ?> audit) {
        Instant at = clock.instant();
        int destroyed = transactions.execute(status -> {
            int count = keys.erase(owner, at);
            events.publish(GenericEventMessage.asEventMessage(new OwnerContentErased(owner, count)).andMetaData(audit));
            return count;
        });
        return new Erased(owner, at, destroyed);
    }
}

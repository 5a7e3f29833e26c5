package org.agentplatform.infra.adapter.secret;

import java.io.IOException;
import java.io.UncheckedIOException;
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
 * Erases an owner's personal content: deletes its uploaded files (their bytes, then their rows), then destroys its data
 * keys ({@link OwnerDataKeys#erase}) and records {@link OwnerContentErased} with who asked, in one transaction (the keys
 * are never destroyed unrecorded, nor recorded undestroyed). Files go first: an erasure that fails part-way leaves the
 * keys, and asking again finishes it. The API's {@code DELETE /api/v1/owners/me/content} and the operators'
 * {@code owners erase} both come here.
 */
public final class OwnerContentEraser implements ContentErasure {

    private final OwnerDataKeys keys;
    private final ErasableContent files;
    private final EventGateway events;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public OwnerContentEraser(OwnerDataKeys keys, ErasableContent files, EventGateway events, TransactionTemplate transactions, Clock clock) {
        this.keys = keys;
        this.files = files;
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
        int deleted;
        try {
            deleted = files.erase(owner);
        } catch (IOException failure) {
            throw new UncheckedIOException("The owner's files could not all be deleted; nothing else was erased", failure);
        }
        int destroyed = transactions.execute(status -> {
            int count = keys.erase(owner, at);
            events.publish(GenericEventMessage.asEventMessage(new OwnerContentErased(owner, count, deleted)).andMetaData(audit));
            return count;
        });
        keys.forget(owner);
        return new Erased(owner, at, destroyed, deleted);
    }
}

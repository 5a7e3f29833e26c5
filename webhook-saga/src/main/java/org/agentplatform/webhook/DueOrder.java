package org.agentplatform.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookId;

/**
 * Puts a webhook's attempts in the order they became due. Retry deadlines that fall due together fire on several
 * scheduler threads and reach the dispatcher in any order; so an attempt that is due waits while another delivery of
 * its webhook is due earlier and its retry has not arrived yet, for at most {@code patience} past that earlier time (a
 * retry lost with a node must not hold the webhook for good). A webhook's first attempts arrive in order already.
 */
final class DueOrder<T> {

    private final Duration patience;
    private final Clock clock;
    private final Map<WebhookId, Webhook<T>> webhooks = new HashMap<>();

    DueOrder(Duration patience, Clock clock) {
        this.patience = patience;
        this.clock = clock;
    }

    /** A failed delivery will be due again at {@code nextAttemptAt}. */
    synchronized void failed(WebhookId webhook, DeliveryId delivery, Instant nextAttemptAt) {
        webhooks.computeIfAbsent(webhook, id -> new Webhook<>()).awaiting.put(delivery, nextAttemptAt);
    }

    /** The delivery is due ({@code dueAt}: when, if no failure said so); answers what may be attempted now, in order. */
    synchronized List<T> due(WebhookId webhook, DeliveryId delivery, T attempt, Instant dueAt) {
        Webhook<T> state = webhooks.computeIfAbsent(webhook, id -> new Webhook<>());
        Instant due = Optional.ofNullable(state.awaiting.remove(delivery)).orElse(dueAt);
        state.ready.add(new Ready<>(delivery, attempt, due));
        return release(webhook, state);
    }

    /** The delivery will not be retried (it succeeded, was dead-lettered or stopped): nothing waits for it any more. */
    synchronized List<T> settled(WebhookId webhook, DeliveryId delivery) {
        Webhook<T> state = webhooks.get(webhook);
        if (state == null || state.awaiting.remove(delivery) == null) {
            return List.of();
        }
        return release(webhook, state);
    }

    /** What waited past its patience, in order; to be asked again at {@link #nextCheck()}. */
    synchronized List<T> overdue() {
        List<T> released = new ArrayList<>();
        for (WebhookId webhook : List.copyOf(webhooks.keySet())) {
            released.addAll(release(webhook, webhooks.get(webhook)));
        }
        return released;
    }

    /** When a waiting attempt is released at the latest; empty when none waits. */
    synchronized Optional<Instant> nextCheck() {
        return webhooks.values().stream()
                .filter(state -> !state.ready.isEmpty())
                .flatMap(state -> state.awaiting.values().stream())
                .min(Comparator.naturalOrder())
                .map(earliest -> earliest.plus(patience));
    }

    private List<T> release(WebhookId webhook, Webhook<T> state) {
        state.ready.sort(Comparator.comparing(Ready::due));
        Instant now = clock.instant();
        List<T> released = new ArrayList<>();
        while (!state.ready.isEmpty()) {
            Instant due = state.ready.getFirst().due();
            boolean earlierPending = state.awaiting.values().stream()
                    .anyMatch(other -> other.isBefore(due) && now.isBefore(other.plus(patience)));
            if (earlierPending) {
                break;
            }
            released.add(state.ready.removeFirst().attempt());
        }
        if (state.ready.isEmpty() && state.awaiting.isEmpty()) {
            webhooks.remove(webhook);
        }
        return released;
    }

    private static final class Webhook<T> {
        private final Map<DeliveryId, Instant> awaiting = new HashMap<>();
        private final List<Ready<T>> ready = new ArrayList<>();
    }

    private record Ready<T>(DeliveryId delivery, T attempt, Instant due) {
    }
}

package org.agentplatform.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * A look at a resource's history decides from reads that can change between them (the audit chain takes events up as it
 * goes): a history chained between "is it the caller's?" and "does anything wait?" is the caller's, not a 404.
 */
class AuditRoutesTest {

    @Test
    void aHistoryChainedBetweenTheTwoReadsIsTheCallers() {
        Mono<Boolean> owns = answers(false, true);

        assertThat(AuditRoutes.look(owns, Mono.just(false)).block()).as("owned once read again").contains(true);
    }

    @Test
    void aHistoryThatWaitsForTheChainIsNotYet() {
        assertThat(AuditRoutes.look(answers(false), Mono.just(true)).block()).isEmpty();
    }

    @Test
    void aHistoryNeitherOwnedNorWaitedForIsNotTheCallers() {
        assertThat(AuditRoutes.look(answers(false, false), Mono.just(false)).block()).contains(false);
    }

    @Test
    void anOwnedHistoryIsReadOnce() {
        Mono<Boolean> owns = answers(true);

        assertThat(AuditRoutes.look(owns, Mono.error(new AssertionError("pending read for an owned history"))).block())
                .isEqualTo(Optional.of(true));
    }

    /** A read that answers each of {@code answers} in turn, one per subscription (as a query run again would). */
    private static Mono<Boolean> answers(Boolean... answers) {
        Deque<Boolean> left = new ArrayDeque<>(List.of(answers));
        return Mono.fromSupplier(() -> {
            assertThat(left).as("reads left").isNotEmpty();
            return left.pop();
        });
    }
}

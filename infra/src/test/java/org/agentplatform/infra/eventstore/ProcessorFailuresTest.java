package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.agentplatform.infra.support.TestClock;
import org.axonframework.eventhandling.ErrorContext;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.GenericTrackedEventMessage;
import org.junit.jupiter.api.Test;

/**
 * A processor keeps failing from its third failed batch until it passes the events they failed on, however long Axon
 * waits between its tries (up to a minute): not until some seconds pass without a failure, which said UP between tries.
 */
class ProcessorFailuresTest {

    private static final String PROCESSOR = "task-projection";

    private final TestClock clock = new TestClock();
    /** The processor's progress as its stored tokens would say: every segment past this global index. */
    private final AtomicReference<StoredTokens.Progress> stored = new AtomicReference<>(new StoredTokens.Progress(99, Set.of()));
    private final ProcessorFailures failures = new ProcessorFailures(clock, processor -> stored.get());

    @Test
    void oneOrTwoFailedBatchesAreNotFailingTheThirdIsUntilTheProcessorPassesTheirEvent() {
        failOn(100);
        assertThat(failures.failing(PROCESSOR)).as("one failed batch: retried, perhaps fine").isNull();
        clock.advance(Duration.ofSeconds(1));
        failOn(100);
        assertThat(failures.failing(PROCESSOR)).isNull();
        clock.advance(Duration.ofSeconds(2));
        failOn(100);
        assertThat(failures.failing(PROCESSOR)).as("the third").startsWith("failing: 3 batches");

        // Axon waits 4, 8, 16, 32, then 60 s between tries: failing throughout, the old "10 s without a failure" aside
        for (int wait : new int[] {4, 8, 16, 32, 60, 60}) {
            clock.advance(Duration.ofSeconds(wait - 1));
            assertThat(failures.failing(PROCESSOR)).as("%d s into a wait of %d s", wait - 1, wait).isNotNull();
            clock.advance(Duration.ofSeconds(1));
            failOn(100);
        }
        assertThat(failures.failing(PROCESSOR)).isNotNull();

        stored.set(new StoredTokens.Progress(100, Set.of()));
        assertThat(failures.failing(PROCESSOR)).as("its event passed: it made progress").isNull();
    }

    @Test
    void anEventPassedMeanwhileIsNotCountedAndOneStillAGapIs() {
        failOn(100);
        clock.advance(Duration.ofSeconds(1));
        failOn(100);
        stored.set(new StoredTokens.Progress(100, Set.of()));
        failOn(105);
        assertThat(failures.failing(PROCESSOR)).as("two of the three passed").isNull();
        failOn(105);
        stored.set(new StoredTokens.Progress(110, Set.of(105L)));
        failOn(105);
        assertThat(failures.failing(PROCESSOR)).as("105 is a gap still: not passed").startsWith("failing: 3 batches");
    }

    @Test
    void failuresWithNoneForLongerThanAnyRetryWaitAreForgotten() {
        failOn(100);
        failOn(100);
        failOn(100);
        assertThat(failures.failing(PROCESSOR)).isNotNull();
        clock.advance(ProcessorFailures.RETRIED_WITHIN.plusSeconds(1));
        assertThat(failures.failing(PROCESSOR)).as("no try here since: held elsewhere, or judged by its progress").isNull();
        failOn(100);
        assertThat(failures.failing(PROCESSOR)).as("counted afresh").isNull();
    }

    @Test
    void aFailureRecordedWhileOldOnesAreForgottenIsKept() {
        failOn(100);
        failOn(100);
        failOn(100);
        clock.advance(ProcessorFailures.RETRIED_WITHIN.plusSeconds(1));
        // a new try fails between the check's read of the last failure and its forgetting of the old ones
        clock.stallNextRead(Thread.currentThread().getName(), () -> failOn(100));
        assertThat(failures.failing(PROCESSOR)).as("the old ones forgotten").isNull();
        failOn(100);
        failOn(100);
        assertThat(failures.failing(PROCESSOR)).as("the one recorded meanwhile counts: three since").startsWith("failing: 3 batches");
    }

    @Test
    void otherProcessorsAreNotTouched() {
        failOn(100);
        failOn(100);
        failOn(100);
        assertThat(failures.failing("audit-chain")).isNull();
    }

    /** A batch starting at {@code index} fails; the handler propagates it, as Axon's default does. */
    private void failOn(long index) {
        RuntimeException failure = new IllegalStateException("simulated conflict");
        ErrorContext context = new ErrorContext(PROCESSOR, failure, List.of(
                new GenericTrackedEventMessage<>(GapAwareTrackingToken.newInstance(index + 1, Set.of()), GenericEventMessage.asEventMessage("b")),
                new GenericTrackedEventMessage<>(GapAwareTrackingToken.newInstance(index, Set.of()), GenericEventMessage.asEventMessage("a"))));
        assertThatThrownBy(() -> failures.handleError(context)).isSameAs(failure);
    }
}

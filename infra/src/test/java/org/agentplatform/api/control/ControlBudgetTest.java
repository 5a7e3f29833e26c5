package org.agentplatform.api.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.agentplatform.infra.adapter.control.PostgresControlBudget;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.kernel.identity.OwnerId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/** The GCRA of the control budget, on the real store, with a clock the test moves. */
class ControlBudgetTest extends ApiTest {

    @Autowired
    private DatabaseClient database;

    private final MovableClock time = new MovableClock(Instant.parse("2026-11-23T10:00:00Z"));
    private ControlBudget budget;
    private OwnerId owner;

    @BeforeEach
    void aFreshOwner() {
        budget = new PostgresControlBudget(database, time, Duration.ofSeconds(2));
        owner = OwnerId.random();
    }

    @Test
    void exactlySixtyActionsInABurstThenOnePerSecond() {
        for (int index = 1; index <= 60; index++) {
            ControlBudget.Decision decision = take(ControlBudget.Bucket.ACTIONS);
            assertThat(decision.admitted()).as("action %d", index).isTrue();
            assertThat(decision.remaining()).isEqualTo(60 - index);
            assertThat(decision.limit()).isEqualTo(60);
        }
        ControlBudget.Decision refused = take(ControlBudget.Bucket.ACTIONS);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        assertThat(refused.remaining()).isZero();
        assertThat(refused.resetSeconds()).isEqualTo(60);

        time.advance(Duration.ofMillis(999));
        assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).isFalse();
        time.advance(Duration.ofMillis(1));
        assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).isTrue();
        assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).isFalse();
        time.advance(Duration.ofSeconds(3));
        for (int index = 0; index < 3; index++) {
            assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).as("refilled %d", index).isTrue();
        }
        assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).isFalse();
    }

    @Test
    void infoHasItsOwnThreeHundred() {
        for (int index = 0; index < 60; index++) {
            take(ControlBudget.Bucket.ACTIONS);
        }
        assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).isFalse();
        for (int index = 1; index <= 300; index++) {
            assertThat(take(ControlBudget.Bucket.INFO).admitted()).as("info %d", index).isTrue();
        }
        ControlBudget.Decision refused = take(ControlBudget.Bucket.INFO);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.limit()).isEqualTo(300);
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        time.advance(Duration.ofMillis(200));
        assertThat(take(ControlBudget.Bucket.INFO).admitted()).isTrue();
    }

    @Test
    void aFullBucketRefillsOverAMinuteAndNeverBeyondItsBurst() {
        for (int index = 0; index < 60; index++) {
            take(ControlBudget.Bucket.ACTIONS);
        }
        time.advance(Duration.ofMinutes(10));
        ControlBudget.Decision first = take(ControlBudget.Bucket.ACTIONS);
        assertThat(first.admitted()).isTrue();
        assertThat(first.remaining()).isEqualTo(59);
        for (int index = 0; index < 59; index++) {
            assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).isTrue();
        }
        assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).isFalse();
    }

    @Test
    void ownersDoNotShareABudget() {
        for (int index = 0; index < 60; index++) {
            take(ControlBudget.Bucket.ACTIONS);
        }
        assertThat(take(ControlBudget.Bucket.ACTIONS).admitted()).isFalse();
        assertThat(budget.take(OwnerId.random(), ControlBudget.Bucket.ACTIONS).block().admitted()).isTrue();
    }

    private ControlBudget.Decision take(ControlBudget.Bucket bucket) {
        return budget.take(owner, bucket).block(Duration.ofSeconds(5));
    }

    /** A clock that stands still until the test moves it. */
    private static final class MovableClock extends Clock {

        private volatile Instant now;

        MovableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}

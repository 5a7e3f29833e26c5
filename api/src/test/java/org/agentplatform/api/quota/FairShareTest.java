package org.agentplatform.api.quota;

import static org.assertj.core.api.Assertions.assertThat;

import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.junit.jupiter.api.Test;

/**
 * Shares of a saturated node: only while it is saturated, only an owner above its weighted share is refused (429 with a
 * Retry-After), an owner alone never, and a refusal is not counted as an admission.
 */
class FairShareTest {

    private static final OwnerId FLOODING = OwnerId.random();
    private static final OwnerId STEADY = OwnerId.random();
    private static final OwnerId HEAVY = OwnerId.random();

    private final MovingClock clock = new MovingClock();
    private boolean saturated;
    private final FairShare shares = new FairShare(() -> saturated, owner -> owner.equals(HEAVY) ? 4 : 1, clock);

    @Test
    void aFloodingOwnerWaitsWhileTheNodeIsSaturatedAndItsNeighbourDoesNot() {
        for (int second = 0; second < 5; second++) {
            admitted(FLOODING, 100);
            admitted(STEADY, 2);
            clock.advance(1_000);
        }
        saturated = true;
        clock.advance(FairShare.TOTAL_MS);
        ApiException refused = shares.refusal(FLOODING);
        assertThat(refused).isNotNull();
        assertThat(refused.code()).isEqualTo(ErrorCode.RATE_LIMITED);
        assertThat(refused.retryAfterSeconds()).isEqualTo(FairShare.RETRY_AFTER_SECONDS);
        assertThat(refused.getMessage()).contains("shared by 2 owners");
        assertThat(shares.refusal(STEADY)).isNull();

        saturated = false;
        assertThat(shares.refusal(FLOODING)).as("the node has room again").isNull();
    }

    @Test
    void anOwnerFirstSeenWhileTheNodeIsSaturatedIsCountedFromItsFirstAdmission() {
        saturated = true;
        admitted(STEADY, 1);
        int admitted = 0;
        while (shares.refusal(FLOODING) == null) {
            assertThat(++admitted).as("refused once past its share").isLessThan(10);
            clock.advance(FairShare.TOTAL_MS);
        }
        assertThat(shares.refusal(STEADY)).isNull();
    }

    @Test
    void anOwnerIdleForLongIsForgottenAndCountedAgainWhenItReturns() {
        admitted(STEADY, 3);
        admitted(FLOODING, 3);
        clock.advance(FairShare.FORGOTTEN_AFTER_MS);
        shares.forgetIdle();
        saturated = true;
        admitted(STEADY, 1);
        clock.advance(FairShare.TOTAL_MS);
        // the flooding owner, back, is counted from its first admission on
        admitted(FLOODING, 2);
        clock.advance(FairShare.TOTAL_MS);
        assertThat(shares.refusal(FLOODING)).isNotNull();
    }

    @Test
    void anOwnerAloneIsNeverRefusedForItsShare() {
        for (int second = 0; second < 5; second++) {
            admitted(FLOODING, 100);
            clock.advance(1_000);
        }
        saturated = true;
        clock.advance(FairShare.TOTAL_MS);
        assertThat(shares.refusal(FLOODING)).isNull();
    }

    @Test
    void aShareFollowsTheOwnersWeight() {
        // 80 a second against 40: over an equal share, within a share of 4 to 1
        for (int second = 0; second < 5; second++) {
            admitted(HEAVY, 80);
            admitted(STEADY, 40);
            clock.advance(1_000);
        }
        saturated = true;
        clock.advance(FairShare.TOTAL_MS);
        assertThat(shares.refusal(HEAVY)).isNull();
        assertThat(shares.refusal(STEADY)).as("40 of 120 a second is over a fifth").isNotNull();
    }

    @Test
    void refusalsAreNotAdmissionsSoTheRateFallsAndTheOwnerIsAdmittedAgain() {
        for (int second = 0; second < 5; second++) {
            admitted(FLOODING, 30);
            admitted(STEADY, 10);
            clock.advance(1_000);
        }
        saturated = true;
        clock.advance(FairShare.TOTAL_MS);
        assertThat(shares.refusal(FLOODING)).isNotNull();
        // the steady owner goes on at 2 a second, the flooding one is refused: its rate halves every half-life until it is
        // within its share
        int refusals = 0;
        while (shares.refusal(FLOODING) != null) {
            assertThat(++refusals).as("admitted again within a few half-lives").isLessThan(20);
            admitted(STEADY, 1);
            clock.advance(FairShare.HALF_LIFE_MS / 4);
        }
    }

    private void admitted(OwnerId owner, int times) {
        for (int time = 0; time < times; time++) {
            assertThat(shares.refusal(owner)).isNull();
        }
    }
}

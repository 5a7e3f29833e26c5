package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.serialization.jackson3.Jackson3Serializer;
import org.junit.jupiter.api.Test;

/**
 * The stored tokens read as Axon's token store writes them (its serializer, as the service configures it): a
 * processor's position is its slowest segment's, its gaps those of every segment, also through a replay's wrapper.
 */
class StoredTokensTest {

    private static final Jackson3Serializer AXON = Jackson3Serializer.builder().build();

    private static byte[] stored(TrackingToken token) {
        return AXON.serialize(token, byte[].class).getData();
    }

    @Test
    void aSegmentsTokenIsReadAsAxonStoresIt() {
        byte[] token = stored(GapAwareTrackingToken.newInstance(42, List.of(39L, 40L)));
        assertThat(StoredTokens.position(token)).isEqualTo(42);
        StoredTokens.Progress progress = StoredTokens.progress(List.of(token));
        assertThat(progress).isEqualTo(new StoredTokens.Progress(42, Set.of(39L, 40L)));
        assertThat(progress.passed(41)).isTrue();
        assertThat(progress.passed(40)).isFalse();
        assertThat(progress.passed(43)).isFalse();
    }

    @Test
    void theProcessorHasGotAsFarAsItsSlowestSegmentAndAReplayReadsThroughItsWrapper() {
        byte[] ahead = stored(GapAwareTrackingToken.newInstance(90, List.of(88L)));
        byte[] behind = stored(ReplayToken.createReplayToken(GapAwareTrackingToken.newInstance(70, List.of()),
                GapAwareTrackingToken.newInstance(50, List.of(45L))));
        StoredTokens.Progress progress = StoredTokens.progress(List.of(ahead, behind));
        assertThat(progress.gaps()).contains(88L);
        assertThat(progress.position()).isLessThanOrEqualTo(70).isGreaterThanOrEqualTo(50);
        assertThat(StoredTokens.progress(java.util.Arrays.asList(ahead, null)).position()).as("a segment that has seen nothing").isZero();
    }
}

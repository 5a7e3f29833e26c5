package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.SplittableRandom;
import org.axonframework.common.DateTimeUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StoredTimestampsTest {

    @Test
    void readsWhatAxonWritesAsAxonReadsIt() {
        SplittableRandom random = new SplittableRandom(42);
        long from = Instant.parse("1000-01-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 100_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(from, to + 1), random.nextLong(1_000_000_000));
            String stored = DateTimeUtils.formatInstant(instant);
            assertThat(StoredTimestamps.parse(stored)).as(stored).isEqualTo(DateTimeUtils.parseInstant(stored));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-11-25T20:33:01.123Z", "2024-02-29T23:59:59.999Z", "1970-01-01T00:00:00.000Z",
            "2026-11-25T20:33:01Z", "2026-11-25T20:33:01.123456789Z", "2026-11-25T21:33:01.123+01:00",
            "2026-11-25t20:33:01.123z", "+12026-11-25T20:33:01.123Z"})
    void otherFormsAreLeftToAxon(String stored) {
        assertThat(StoredTimestamps.parse(stored)).isEqualTo(DateTimeUtils.parseInstant(stored));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-02-30T20:33:01.123Z", "2026-13-25T20:33:01.123Z", "2026-11-25T20:60:01.123Z",
            "2026-11-25T20:33:61.123Z", "2026-11-2xT20:33:01.123Z", "2026-11-25 20:33:01.123Z",
            "2026-11-25T24:00:00.000Z", "12026-11-25T20:33:01.123Z", ""})
    void whatNamesNoInstantFailsAsInAxon(String stored) {
        assertThatThrownBy(() -> DateTimeUtils.parseInstant(stored)).isInstanceOf(DateTimeParseException.class);
        assertThatThrownBy(() -> StoredTimestamps.parse(stored)).isInstanceOf(DateTimeParseException.class);
    }
}

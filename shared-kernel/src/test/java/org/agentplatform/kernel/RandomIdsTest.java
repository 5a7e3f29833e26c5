package org.agentplatform.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RandomIdsTest {

    @Test
    void idsAreRandomVersionFourUuidsThatDoNotRepeat() {
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            UUID id = RandomIds.uuid();
            assertThat(id.version()).isEqualTo(4);
            assertThat(id.variant()).isEqualTo(2);
            assertThat(seen.add(id)).as("unique").isTrue();
            assertThat(UUID.fromString(id.toString())).isEqualTo(id);
        }
    }

    @Test
    void threadsDrawFromGeneratorsOfTheirOwnWithoutRepeatingEachOther() {
        Set<UUID> seen = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 8).parallel().forEach(thread -> {
            for (int i = 0; i < 5_000; i++) {
                assertThat(seen.add(RandomIds.uuid())).isTrue();
            }
        });
        assertThat(seen).hasSize(40_000);
        assertThat(RandomIds.bytes(12)).hasSize(12).isNotEqualTo(RandomIds.bytes(12));
    }
}

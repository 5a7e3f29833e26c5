package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.axonframework.common.DefaultIdentifierFactory;
import org.axonframework.common.IdentifierFactory;
import org.junit.jupiter.api.Test;

/** Axon finds our identifier factory, and its identifiers have the form Axon's default gives (random version 4 UUIDs). */
class RandomMessageIdsTest {

    @Test
    void axonUsesItAndItsIdsAreOfTheFormOfAxonsDefault() {
        IdentifierFactory factory = IdentifierFactory.getInstance();
        assertThat(factory).isInstanceOf(RandomMessageIds.class);
        UUID axons = UUID.fromString(new DefaultIdentifierFactory().generateIdentifier());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = factory.generateIdentifier();
            UUID ours = UUID.fromString(id);
            assertThat(ours.toString()).isEqualTo(id);
            assertThat(ours.version()).isEqualTo(axons.version());
            assertThat(ours.variant()).isEqualTo(axons.variant());
            assertThat(seen.add(id)).as("unique").isTrue();
        }
    }
}

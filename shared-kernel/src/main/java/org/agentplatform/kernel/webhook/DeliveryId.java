package org.agentplatform.kernel.webhook;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** One delivery (a row of the audit) of a callback to a webhook. */
public record DeliveryId(UUID value) {

    public DeliveryId {
        Objects.requireNonNull(value, "value");
    }

    public static DeliveryId random() {
        return new DeliveryId(RandomIds.uuid());
    }

    public static DeliveryId of(String value) {
        return new DeliveryId(UUID.fromString(value));
    }

    /** The delivery of the task event {@code eventId} to {@code webhook}: the same every time, so a replay creates nothing twice. */
    public static DeliveryId of(String eventId, WebhookId webhook) {
        return new DeliveryId(UUID.nameUUIDFromBytes(("delivery\n" + eventId + "\n" + webhook).getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}

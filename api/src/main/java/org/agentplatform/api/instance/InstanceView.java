package org.agentplatform.api.instance;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import org.agentplatform.query.instance.InstanceRecord;
import org.jspecify.annotations.Nullable;

/** The wire shape of an instance. */
record InstanceView(
        String id,
        String name,
        String provider,
        String region,
        String kind,
        String status,
        @JsonProperty("runtime_epoch") long runtimeEpoch,
        @JsonProperty("failure_reason") @Nullable String failureReason,
        @JsonProperty("created_at") Instant createdAt,
        @JsonProperty("updated_at") Instant updatedAt) {

    static InstanceView of(InstanceRecord instance) {
        return new InstanceView(instance.id().toString(), instance.name(), instance.providerId(), instance.regionId(),
                instance.kind().wireName(), instance.status().wireName(), instance.runtimeEpoch(), instance.failureReason(),
                instance.createdAt(), instance.updatedAt());
    }
}

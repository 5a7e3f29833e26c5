package org.agentplatform.query.instance;

import java.time.Instant;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDeployRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDestroyed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceFailed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceRestartRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceStopped;
import org.agentplatform.kernel.instance.InstanceEvent.RuntimeStarted;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.SqlTime;
import org.agentplatform.query.agent.PlacementChanges;
import org.agentplatform.query.channel.ChannelLog;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.jdbc.core.JdbcTemplate;

/** Instance events into {@code instance_view}; a row's version is its aggregate's last sequence, so replays are no-ops. */
@ProcessingGroup(InstanceProjection.GROUP)
public class InstanceProjection {

    public static final String GROUP = "instance-projection";

    private final JdbcTemplate jdbc;
    private final PlacementChanges placements;

    public InstanceProjection(JdbcTemplate jdbc) {
        this(jdbc, PlacementChanges.NONE);
    }

    /** {@code placements} hears of every change of an instance's status or epoch (agents on it are placed anew). */
    public InstanceProjection(JdbcTemplate jdbc, PlacementChanges placements) {
        this.jdbc = jdbc;
        this.placements = placements;
    }

    @EventHandler
    void on(InstanceDeployRequested event, @SequenceNumber long sequence, @Timestamp Instant at,
            @MetaDataValue(GlobalIndex.KEY) Long index, TrackingToken token) {
        placements.changing(event.instanceId().value());
        jdbc.update("INSERT INTO instance_view (id, owner_id, name, provider_id, region_id, kind, status, version, created_at,"
                        + " updated_at, list_offset) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.instanceId().value(), event.ownerId().value(), event.name(), event.providerId(), event.regionId(),
                event.kind().wireName(), InstanceStatus.DEPLOYING.wireName(), sequence, SqlTime.of(at), SqlTime.of(at),
                ChannelLog.globalIndex(index, token));
        ReadModelWaits.changed(jdbc, event.instanceId());
    }

    @EventHandler
    void on(RuntimeStarted event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.instanceId(), InstanceStatus.RUNNING, event.runtimeEpoch(), null, sequence, at);
    }

    @EventHandler
    void on(InstanceStopped event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.instanceId(), InstanceStatus.STOPPED, null, null, sequence, at);
    }

    @EventHandler
    void on(InstanceRestartRequested event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.instanceId(), InstanceStatus.RESTARTING, null, null, sequence, at);
    }

    @EventHandler
    void on(InstanceFailed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.instanceId(), InstanceStatus.FAILED, null, event.reason(), sequence, at);
    }

    @EventHandler
    void on(InstanceDestroyed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.instanceId(), InstanceStatus.DESTROYED, null, null, sequence, at);
    }

    private void change(InstanceId id, InstanceStatus status, Long runtimeEpoch, String failureReason, long sequence, Instant at) {
        placements.changing(id.value());
        jdbc.update("UPDATE instance_view SET status = ?, runtime_epoch = COALESCE(?, runtime_epoch), failure_reason = ?,"
                        + " version = ?, updated_at = ? WHERE id = ? AND version < ?",
                status.wireName(), runtimeEpoch, failureReason, sequence, SqlTime.of(at), id.value(), sequence);
        ReadModelWaits.changed(jdbc, id);
    }
}

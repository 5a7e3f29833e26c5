package org.agentplatform.api.channel;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.agentplatform.query.channel.ChannelEntry;

/** One row of a task's or conversation's log on the wire: fields that do not apply to its kind are left out. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EntryView(
        long offset,
        String kind,
        int turn,
        String role,
        String status,
        @JsonProperty("final") Boolean isFinal,
        String text,
        List<Object> attachments,
        Map<String, Object> data,
        Instant timestamp) {

    /**
     * @param isFinal for a status row, whether it is the last of its kind (null for other rows)
     * @param open how the owner's sealed texts (the row's text, its attachments' names) are opened for the wire
     */
    public static EntryView of(ChannelEntry entry, Boolean isFinal, UnaryOperator<String> open) {
        ChannelEntry opened = entry.personal(open);
        return new EntryView(opened.offset(), opened.kind(), opened.turn(), opened.role(), opened.status(), isFinal, opened.text(),
                opened.attachments().isEmpty() ? null : opened.attachments(), opened.data(), opened.occurredAt());
    }

    public EntryView withData(Map<String, Object> wire) {
        return new EntryView(offset, kind, turn, role, status, isFinal, text, attachments, wire, timestamp);
    }
}

package org.agentplatform.infra.replay;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * One row of the event store as stored, and its link in the audit chain. The record hashed is every column, in
 * the table's order below, each as a 4-byte big-endian length and its bytes (text in UTF-8, numbers in decimal,
 * a null as empty); the link is SHA-256 of the previous link followed by that record (docs/audit.md).
 */
public record StoredEvent(long globalIndex, String eventIdentifier, String aggregateIdentifier, long sequenceNumber, String type,
        String timeStamp, String payloadType, String payloadRevision, byte[] payload, byte[] metaData) {

    /** The columns, in the order of the record. */
    public static final String COLUMNS = "global_index, event_identifier, aggregate_identifier, sequence_number, type, time_stamp,"
            + " payload_type, payload_revision, payload, meta_data";
    /** The previous link of the first event. */
    public static final byte[] GENESIS = new byte[32];

    public static StoredEvent of(ResultSet row) throws SQLException {
        return new StoredEvent(row.getLong("global_index"), row.getString("event_identifier"), row.getString("aggregate_identifier"),
                row.getLong("sequence_number"), row.getString("type"), row.getString("time_stamp"), row.getString("payload_type"),
                row.getString("payload_revision"), row.getBytes("payload"), row.getBytes("meta_data"));
    }

    /** The bytes the chain hashes for this event. */
    public byte[] record() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length + (metaData == null ? 0 : metaData.length) + 256);
        field(out, Long.toString(globalIndex));
        field(out, eventIdentifier);
        field(out, aggregateIdentifier);
        field(out, Long.toString(sequenceNumber));
        field(out, type);
        field(out, timeStamp);
        field(out, payloadType);
        field(out, payloadRevision);
        field(out, payload);
        field(out, metaData);
        return out.toByteArray();
    }

    /** This event's link after {@code previous}. */
    public byte[] link(byte[] previous) {
        return link(previous, record());
    }

    /** The link after {@code previous} of an event whose {@link #record()} is {@code record}. */
    public static byte[] link(byte[] previous, byte[] record) {
        MessageDigest sha256 = sha256();
        sha256.update(previous);
        sha256.update(record);
        return sha256.digest();
    }

    private static void field(ByteArrayOutputStream out, String text) {
        field(out, text == null ? null : text.getBytes(StandardCharsets.UTF_8));
    }

    private static void field(ByteArrayOutputStream out, byte[] bytes) {
        byte[] value = bytes == null ? new byte[0] : bytes;
        out.writeBytes(ByteBuffer.allocate(Integer.BYTES).putInt(value.length).array());
        out.writeBytes(value);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every Java runtime has SHA-256", impossible);
        }
    }
}

package org.agentplatform.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The audit log as it grows (issue 42): the store is filled with copies of one real event of the bench's owner (a
 * control action, which only the audit chain takes up), written straight into the event store in large statements, up
 * to each size; at each size the chain's cost per appended event (the time its processor takes to chain and add to the
 * Merkle tree a further window of events, divided by the window) and the proofs' size and time through the API (an
 * inclusion proof of the owner's event against that size, a consistency proof from half that size). Flat append and
 * logarithmic proofs are what the figures should show.
 */
final class AuditLog {

    /** The figures at one size of the log. */
    record Point(long size, double appendMicrosPerEvent, int inclusionHashes, double inclusionMillisP50, int consistencyHashes,
            double consistencyMillisP50) {
    }

    private static final int FILL_CHUNK = 200_000;
    private static final Duration PATIENCE = Duration.ofMinutes(15);

    private final Service service;
    private final HttpConnection http;
    private final int window;
    private final int proofReads;

    AuditLog(Service service, HttpConnection http, int window, int proofReads) {
        this.service = service;
        this.http = http;
        this.window = window;
        this.proofReads = proofReads;
    }

    List<Point> measure(String instance, long... sizes) throws Exception {
        Platform.ok(http.send("POST", "/api/v1/instances/" + instance + "/computer/move", Platform.json(Map.of("x", 10, "y", 10))), 200);
        try (Connection db = DriverManager.getConnection(service.jdbcUrl("agent_platform"), "postgres", service.postgresPassword())) {
            long original = awaitOriginal(db);
            List<Point> points = new ArrayList<>();
            for (long size : sizes) {
                fill(db, size - window);
                awaitChained(db, size - window);
                long started = System.nanoTime();
                fill(db, size);
                awaitChained(db, size);
                double micros = (System.nanoTime() - started) / 1_000.0 / window;
                points.add(proofs(db, original, size, micros));
                System.out.printf("bench: audit log at %,d events: %.1f µs per appended event, inclusion proof %d hashes in %.1f ms,"
                        + " consistency proof %d hashes in %.1f ms%n", size, micros, points.getLast().inclusionHashes(),
                        points.getLast().inclusionMillisP50(), points.getLast().consistencyHashes(), points.getLast().consistencyMillisP50());
            }
            return points;
        }
    }

    /** The global index of the owner's control action, once the chain holds it. */
    private static long awaitOriginal(Connection db) throws Exception {
        long[] index = new long[1];
        Platform.await(() -> {
            try (Statement statement = db.createStatement();
                 ResultSet row = statement.executeQuery("SELECT e.global_index FROM domain_event_entry e JOIN audit_event a"
                         + " ON a.global_index = e.global_index WHERE e.payload_type LIKE '%ControlActionPerformed' LIMIT 1")) {
                if (row.next()) {
                    index[0] = row.getLong(1);
                    return true;
                }
                return false;
            }
        }, "the control action chained");
        return index[0];
    }

    /** Copies of the control action until the store holds {@code size} events (or more). */
    private static void fill(Connection db, long size) throws Exception {
        long missing = size - count(db);
        while (missing > 0) {
            int chunk = (int) Math.min(missing, FILL_CHUNK);
            try (PreparedStatement copies = db.prepareStatement("INSERT INTO domain_event_entry (aggregate_identifier, sequence_number,"
                    + " type, event_identifier, meta_data, payload, payload_revision, payload_type, time_stamp)"
                    + " SELECT id, 0, NULL, id, e.meta_data, e.payload, e.payload_revision, e.payload_type, e.time_stamp"
                    + " FROM (SELECT * FROM domain_event_entry WHERE payload_type LIKE '%ControlActionPerformed' LIMIT 1) e,"
                    + " LATERAL (SELECT gen_random_uuid()::text AS id FROM generate_series(1, ?)) copy")) {
                copies.setInt(1, chunk);
                copies.executeUpdate();
            }
            missing -= chunk;
        }
    }

    private static long count(Connection db) throws Exception {
        try (Statement statement = db.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM domain_event_entry")) {
            row.next();
            return row.getLong(1);
        }
    }

    /** Waits until the chain (and its tree) holds {@code size} events. */
    private static void awaitChained(Connection db, long size) throws Exception {
        Instant giveUp = Instant.now().plus(PATIENCE);
        while (Instant.now().isBefore(giveUp)) {
            try (Statement statement = db.createStatement();
                 ResultSet row = statement.executeQuery("SELECT coalesce(max(position), 0) FROM audit_event")) {
                row.next();
                if (row.getLong(1) >= size) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the audit chain did not reach " + size + " events in " + PATIENCE);
    }

    private Point proofs(Connection db, long original, long size, double micros) throws Exception {
        long middle;
        try (PreparedStatement statement = db.prepareStatement("SELECT global_index FROM audit_event WHERE position = ?")) {
            statement.setLong(1, size / 2);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                middle = row.getLong(1);
            }
        }
        Latencies inclusion = new Latencies();
        Latencies consistency = new Latencies();
        int inclusionHashes = 0;
        int consistencyHashes = 0;
        for (int read = 0; read < proofReads; read++) {
            long event = read % 2 == 0 ? original : middle;
            long started = System.nanoTime();
            JsonNode proof = Platform.ok(http.get("/api/v1/audit/events/" + event + "/proof?tree_size=" + size), 200);
            inclusion.record(started, System.nanoTime());
            inclusionHashes = Math.max(inclusionHashes, proof.at("/data/audit_path").size());
            started = System.nanoTime();
            JsonNode prefix = Platform.ok(http.get("/api/v1/audit/consistency?first=" + (size / 2 + read) + "&second=" + size), 200);
            consistency.record(started, System.nanoTime());
            consistencyHashes = Math.max(consistencyHashes, prefix.at("/data/consistency_path").size());
        }
        return new Point(size, micros, inclusionHashes, inclusion.summary().p50(), consistencyHashes, consistency.summary().p50());
    }

    static Map<String, Object> json(Point point) {
        return Map.of("events", point.size(), "append_us_per_event", point.appendMicrosPerEvent(),
                "inclusion_proof_hashes", point.inclusionHashes(), "inclusion_proof_ms_p50", point.inclusionMillisP50(),
                "consistency_proof_hashes", point.consistencyHashes(), "consistency_proof_ms_p50", point.consistencyMillisP50());
    }
}

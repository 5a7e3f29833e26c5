package org.agentplatform.infra.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.agentplatform.infra.eventstore.StoredTokens;
import org.agentplatform.infra.replay.JdbcStoredEvents;
import org.agentplatform.infra.replay.ProjectionRebuild;
import org.agentplatform.infra.replay.ReadModels;
import org.agentplatform.query.replay.ReadModel;
import org.axonframework.serialization.jackson3.Jackson3Serializer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code java -jar agent-platform.jar projections status | rebuild [<processor>|all]}
 * <p>
 * {@code status}: each event processor, the position of its segments, its lag behind the store's head, who holds its
 * claims, and its parked events. {@code rebuild}: rebuilds read models from the event store with their own projections,
 * showing progress, then says whether the rebuilt tables equal the ones they replace (a checksum of every row). Run it
 * with the service stopped: exit 3 when a node still holds claims. Exit codes: 0 rebuilt and equal (or, for status,
 * nothing parked), 1 some differed (they are rebuilt all the same) or events are parked, 2 usage, 3 service running.
 */
public final class ProjectionsCommand {

    public static final String NAME = "projections";
    static final String USAGE = """
            usage: java -jar agent-platform.jar projections status [--<setting>=<value> ...]
                   java -jar agent-platform.jar projections rebuild [<processor>|all] [--<setting>=<value> ...]
              Configuration as for the service (AGENT_PLATFORM_DATA_DIR, AGENT_PLATFORM_DATABASE_URL, ...).
              Rebuild with the service stopped.""";
    /** A claim refreshed this recently means a node is running the processor. */
    private static final String LIVE_CLAIM = "15 seconds";
    private static final int BAR = 30;

    private ProjectionsCommand() {
    }

    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || !(args[0].equals("status") || args[0].equals("rebuild"))) {
            err.println(USAGE);
            return 2;
        }
        String target = null;
        List<String> settings = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("--") && args[i].contains("=")) {
                settings.add(args[i]);
            } else if (args[0].equals("rebuild") && target == null && !args[i].startsWith("--")) {
                target = args[i];
            } else {
                err.println(USAGE);
                return 2;
            }
        }
        try (CliDatabase database = CliDatabase.open(settings)) {
            JdbcTemplate jdbc = database.jdbc();
            ReadModels models = new ReadModels(jdbc);
            if (args[0].equals("status")) {
                return status(jdbc, out);
            }
            boolean all = target == null || target.equals("all");
            List<ReadModel> chosen = all ? models.all() : models.named(target).map(List::of).orElse(List.of());
            if (chosen.isEmpty()) {
                err.println("no read model is kept by '" + target + "'; one of: all, "
                        + String.join(", ", models.all().stream().map(ReadModel::processor).toList()));
                return 2;
            }
            List<String> claimed = jdbc.queryForList("SELECT DISTINCT processor_name FROM token_entry WHERE owner IS NOT NULL"
                    + " AND timestamp::timestamptz > now() - interval '" + LIVE_CLAIM + "' ORDER BY 1", String.class);
            if (!claimed.isEmpty()) {
                err.println("a service is running on this database (it holds " + String.join(", ", claimed)
                        + "): stop it, then rebuild");
                return 3;
            }
            ProjectionRebuild rebuild = new ProjectionRebuild(jdbc, new TransactionTemplate(new DataSourceTransactionManager(database.dataSource())),
                    new JdbcStoredEvents(jdbc, Jackson3Serializer.builder().build()));
            boolean allEqual = true;
            for (ReadModel model : chosen) {
                long started = System.nanoTime();
                ProjectionRebuild.Outcome outcome = rebuild.rebuild(model, (index, head, events) -> out.print("\r" + bar(model.processor(),
                        index, head, events, started)));
                out.printf("\r%-28s %,d events in %.1f s (%,.0f events/s)%s%n", model.processor(), outcome.events(),
                        outcome.took().toMillis() / 1000.0, outcome.eventsPerSecond(),
                        outcome.failed() == 0 ? "" : ", " + outcome.failed() + " the projection could not take");
                for (ProjectionRebuild.Comparison table : outcome.tables()) {
                    out.printf("    %-20s %,d rows  %s%n", table.table(), table.rebuiltRows(),
                            table.equal() ? "equal to the live table" : "DIFFERS from the live table (" + table.liveRows() + " rows)");
                }
                allEqual &= outcome.equal();
            }
            return allEqual ? 0 : 1;
        } catch (IOException unavailable) {
            err.println("cannot open the database: " + unavailable.getMessage());
            return 2;
        }
    }

    private static String bar(String processor, long index, long head, long events, long started) {
        double done = head == 0 ? 1 : Math.min(1, (double) index / head);
        double seconds = Math.max(0.001, (System.nanoTime() - started) / 1e9);
        double rate = events / seconds;
        double eta = done <= 0 ? 0 : seconds / done - seconds;
        int filled = (int) Math.round(done * BAR);
        return String.format("%-28s [%s%s] %3.0f%%  %,.0f events/s  ETA %.0f s", processor, "#".repeat(filled), ".".repeat(BAR - filled),
                done * 100, rate, eta);
    }

    private static int status(JdbcTemplate jdbc, PrintStream out) {
        Long head = jdbc.queryForObject("SELECT COALESCE(max(global_index), 0) FROM domain_event_entry", Long.class);
        Map<String, Long> parked = new TreeMap<>();
        jdbc.query("SELECT processing_group, count(*) AS events FROM dead_letter_entry GROUP BY processing_group",
                row -> {
                    parked.put(row.getString("processing_group"), row.getLong("events"));
                });
        out.printf("store head: global index %,d%n", head);
        out.printf("%-28s %-8s %12s %10s %8s  %s%n", "processor", "segment", "position", "lag", "parked", "claimed by");
        List<Map<String, Object>> tokens = jdbc.queryForList("SELECT processor_name, segment, token, owner, timestamp FROM token_entry"
                + " ORDER BY processor_name, segment");
        for (Map<String, Object> token : tokens) {
            long position = StoredTokens.position((byte[]) token.get("token"));
            String processor = (String) token.get("processor_name");
            out.printf("%-28s %-8s %,12d %,10d %,8d  %s%n", processor, token.get("segment"), position, Math.max(0, head - position),
                    parked.getOrDefault(processor, 0L), token.get("owner") == null ? "-" : token.get("owner") + " at " + token.get("timestamp"));
        }
        long total = parked.values().stream().mapToLong(Long::longValue).sum();
        out.println(total == 0 ? "no parked events" : total + " parked event(s): java -jar agent-platform.jar deadletters list");
        return total == 0 ? 0 : 1;
    }
}

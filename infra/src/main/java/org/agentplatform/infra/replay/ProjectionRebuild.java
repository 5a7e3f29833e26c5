package org.agentplatform.infra.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentplatform.query.replay.ProjectionFold;
import org.agentplatform.query.replay.ReadModel;
import org.agentplatform.query.replay.StoredEvents;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rebuilds a read model from the event store: every event, in global order, through the projection's own handlers into
 * fresh copies of its tables ({@link ProjectionFold}); then compares the copies with the live tables (a checksum of
 * every row, the columns no event writes left out, and carried over) and puts the copies in their place, all in one
 * transaction. Meant for a stopped service: a running one keeps writing the live tables meanwhile.
 */
public final class ProjectionRebuild {

    private static final int PAGE = 2000;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final StoredEvents events;

    public ProjectionRebuild(JdbcTemplate jdbc, TransactionTemplate transactions, StoredEvents events) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.events = events;
    }

    /** Told after each page: events read so far and the store's head. */
    public interface Progress {
        void read(long globalIndex, long head, long events);
    }

    /** A table compared: its rows live and rebuilt, and whether they were equal. */
    public record Comparison(String table, long liveRows, long rebuiltRows, boolean equal) {
    }

    public record Outcome(String processor, long events, long failed, Duration took, List<Comparison> tables) {

        public boolean equal() {
            return tables.stream().allMatch(Comparison::equal);
        }

        public double eventsPerSecond() {
            return events / Math.max(0.001, took.toNanos() / 1e9);
        }
    }

    public Outcome rebuild(ReadModel model, Progress progress) {
        long started = System.nanoTime();
        return transactions.execute(status -> {
            ProjectionFold fold = new ProjectionFold(jdbc, model);
            fold.shadow();
            long head = events.head();
            long after = 0;
            long read = 0;
            while (true) {
                List<TrackedEventMessage<?>> page = events.after(after, PAGE);
                if (page.isEmpty()) {
                    break;
                }
                fold.apply(page);
                read += page.size();
                after = page.getLast().trackingToken().position().orElseThrow();
                progress.read(after, Math.max(head, after), read);
            }
            List<Comparison> comparisons = new ArrayList<>();
            for (ReadModel.Table table : model.tables()) {
                carryOver(table);
                comparisons.add(compare(table));
            }
            replace(model);
            return new Outcome(model.processor(), read, fold.failed(), Duration.ofNanos(System.nanoTime() - started), comparisons);
        });
    }

    /** The columns no event writes keep their live values. */
    private void carryOver(ReadModel.Table table) {
        if (table.otherColumns().isEmpty()) {
            return;
        }
        String assignments = String.join(", ", table.otherColumns().stream().map(column -> column + " = live." + column).toList());
        jdbc.update("UPDATE pg_temp." + table.name() + " copy SET " + assignments + " FROM public." + table.name() + " live"
                + " WHERE live." + table.key() + " = copy." + table.key());
    }

    private Comparison compare(ReadModel.Table table) {
        List<String> columns = new ArrayList<>(jdbc.queryForList("SELECT column_name FROM information_schema.columns"
                + " WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position", String.class, table.name()));
        columns.removeAll(table.otherColumns());
        String select = String.join(", ", columns);
        Map<String, Object> live = checksum(select, table.rowsIn("public"));
        Map<String, Object> rebuilt = checksum(select, table.rowsIn("pg_temp"));
        return new Comparison(table.name(), ((Number) live.get("rows")).longValue(), ((Number) rebuilt.get("rows")).longValue(),
                live.equals(rebuilt));
    }

    private Map<String, Object> checksum(String columns, String rows) {
        return new LinkedHashMap<>(jdbc.queryForMap("SELECT count(*) AS rows, COALESCE(md5(string_agg(h, '' ORDER BY h)), '') AS sum"
                + " FROM (SELECT md5(r::text) AS h FROM (SELECT " + columns + " FROM " + rows + ") r) hashed"));
    }

    /** The model's rows in the live tables become the rebuilt ones (shared tables lose only this model's rows). */
    private void replace(ReadModel model) {
        List<ReadModel.Table> tables = model.tables();
        for (int i = tables.size() - 1; i >= 0; i--) {
            ReadModel.Table table = tables.get(i);
            jdbc.update("DELETE FROM public." + table.name() + (table.scope() == null ? "" : " WHERE " + table.scope().formatted("public")));
        }
        for (ReadModel.Table table : tables) {
            jdbc.update("INSERT INTO public." + table.name() + " SELECT * FROM pg_temp." + table.name());
        }
    }
}

package org.agentplatform.query;

import io.r2dbc.spi.Readable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * One page of a list, newest first, and the cursor of the next one: the list offset of the page's last item when the page
 * is full, else {@code null} (no older item). A list offset is the global index of the event that created the item (or,
 * for rows written outside the event store, a sequence of their table), so it orders items as they were made, is the same
 * after a rebuild of the read model, and reaches every item however many were made in one millisecond.
 */
public record Page<T>(List<T> items, @Nullable Long nextCursor) {

    /** The column each paged table keeps its items' list offsets in. */
    public static final String COLUMN = "list_offset";

    public Page {
        items = List.copyOf(items);
    }

    /**
     * The page of {@code select} (a query of the table's rows, ending in its {@code WHERE} conditions, its binds made by
     * {@code binds}) that comes after {@code before} (a page's {@code next_cursor}, or null for the newest).
     */
    public static <T> Mono<Page<T>> newestFirst(DatabaseClient database, String select, Function<DatabaseClient.GenericExecuteSpec,
            DatabaseClient.GenericExecuteSpec> binds, @Nullable Long before, int limit, Function<Readable, T> row) {
        DatabaseClient.GenericExecuteSpec query = binds.apply(database.sql(select + (before == null ? "" : " AND " + COLUMN + " < :before")
                + " ORDER BY " + COLUMN + " DESC LIMIT :limit")).bind("limit", limit);
        if (before != null) {
            query = query.bind("before", before);
        }
        return query.map(found -> new Positioned<>(found.get(COLUMN, Long.class), row.apply(found))).all().collectList().map(rows -> {
            List<T> items = new ArrayList<>(rows.size());
            rows.forEach(positioned -> items.add(positioned.item()));
            return new Page<>(items, rows.size() == limit ? rows.getLast().offset() : null);
        });
    }

    /** The same page with each item made into another (a record into its view). */
    public <R> Page<R> map(Function<T, R> into) {
        return new Page<>(items.stream().map(into).toList(), nextCursor);
    }

    private record Positioned<T>(Long offset, T item) {
    }
}

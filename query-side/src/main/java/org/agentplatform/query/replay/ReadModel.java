package org.agentplatform.query.replay;

import java.util.List;

/**
 * A read model as a replay sees it: the processor that keeps it, the projection whose handlers build it, and the
 * tables it writes.
 */
public record ReadModel(String processor, Object projection, List<Table> tables) {

    public ReadModel {
        tables = List.copyOf(tables);
    }

    /**
     * A table the projection writes. {@code scope}, when the table is shared with another read model, is the condition
     * that selects this model's rows, {@code %s} standing for the schema of the model's other tables (e.g.
     * {@code channel_id IN (SELECT id FROM %s.task_view)}); {@code otherColumns} are those something other than the
     * events writes (e.g. {@code pruned_through}, moved by the chunk pruner): a rebuild keeps them and leaves them out
     * of its comparison.
     */
    public record Table(String name, String scope, List<String> otherColumns, String key) {

        public Table {
            otherColumns = List.copyOf(otherColumns);
        }

        public static Table of(String name) {
            return new Table(name, null, List.of(), null);
        }

        /** The rows of this model in {@code schema} ({@code public}, or {@code pg_temp} for a fold's copies). */
        public String rowsIn(String schema) {
            return schema + "." + name + (scope == null ? "" : " WHERE " + scope.formatted(schema));
        }
    }

    public List<String> tableNames() {
        return tables.stream().map(Table::name).toList();
    }
}

package org.agentplatform.query;

import io.r2dbc.spi.Readable;
import java.util.function.Function;

/**
 * A read of a read model as SQL (named parameters, {@code :id}) and its row mapping, shared by the API's reactive
 * reads and the point-in-time reads, which run the same SQL with JDBC over tables folded for the occasion.
 */
public record RowQuery<T>(String sql, Function<Readable, T> row) {
}

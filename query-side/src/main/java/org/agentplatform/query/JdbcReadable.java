package org.agentplatform.query;

import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * A JDBC row seen as an R2DBC one, so one row mapping ({@link RowQuery}) serves both: the types the read models use
 * ({@code Instant} from {@code timestamptz}, {@code Json} from {@code jsonb}, numbers, text, uuids, booleans).
 */
public final class JdbcReadable implements Readable {

    private final ResultSet row;

    public JdbcReadable(ResultSet row) {
        this.row = row;
    }

    @Override
    public <T> T get(int index, Class<T> type) {
        try {
            return convert(row.getObject(index + 1), type);
        } catch (SQLException failure) {
            throw new IllegalStateException(failure);
        }
    }

    @Override
    public <T> T get(String name, Class<T> type) {
        try {
            return convert(row.getObject(name), type);
        } catch (SQLException failure) {
            throw new IllegalStateException(failure);
        }
    }

    private <T> T convert(Object value, Class<T> type) throws SQLException {
        if (value == null) {
            return null;
        }
        if (type == Instant.class) {
            return type.cast(value instanceof java.sql.Timestamp timestamp ? timestamp.toInstant()
                    : value instanceof OffsetDateTime offset ? offset.toInstant() : Instant.parse(value.toString()));
        }
        if (type == Json.class) {
            return type.cast(Json.of(value.toString()));
        }
        if (type == Long.class && value instanceof Number number) {
            return type.cast(number.longValue());
        }
        if (type == Integer.class && value instanceof Number number) {
            return type.cast(number.intValue());
        }
        if (type == String.class) {
            return type.cast(value.toString());
        }
        return type.cast(value);
    }
}

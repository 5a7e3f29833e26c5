package org.agentplatform.query;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/** Instants as JDBC parameters for {@code timestamptz} columns. */
public final class SqlTime {

    private SqlTime() {
    }

    public static OffsetDateTime of(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** The instant as a {@code timestamptz} column holds it once written through {@link #of}: microseconds, the driver rounding half up. */
    public static Instant asStored(Instant instant) {
        return instant.getNano() % 1_000 >= 500 ? instant.truncatedTo(ChronoUnit.MICROS).plus(1, ChronoUnit.MICROS)
                : instant.truncatedTo(ChronoUnit.MICROS);
    }
}

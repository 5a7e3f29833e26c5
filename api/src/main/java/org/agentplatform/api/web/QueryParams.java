package org.agentplatform.api.web;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.agentplatform.api.error.ApiException;
import org.jspecify.annotations.Nullable;

/** Query parameters shared by list endpoints. */
public final class QueryParams {

    /** How many items a page of a cursor-paged list holds when {@code limit} is absent, and at most. */
    public static final int PAGE_LIMIT = 50;
    public static final int PAGE_MAX = 200;

    private QueryParams() {
    }

    /** An RFC 3339 date-time ({@code since}, {@code until}, {@code as_of}); absent is null, malformed is 400 {@code invalid_param}. */
    public static Instant instant(String param, String value) {
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException notATime) {
            throw ApiException.invalidParam(param, "'" + param + "' must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z");
        }
    }

    /** {@code limit}: absent gives {@code fallback}; out of range is clamped to [1, max]; not a number is 400 {@code invalid_param}. */
    public static int limit(String raw, int fallback, int max) {
        if (raw == null) {
            return fallback;
        }
        try {
            return (int) Math.max(1, Math.min(max, Long.parseLong(raw)));
        } catch (NumberFormatException notANumber) {
            throw ApiException.invalidParam("limit", "'limit' must be an integer");
        }
    }

    /**
     * A page of a list paged newest first by {@code cursor} (a previous page's {@code next_cursor}; absent for the newest
     * page; not an offset is 400 {@code invalid_param}) with {@code limit} items (default 50, clamped to [1, 200]).
     */
    public static PageRequest page(@Nullable String limit, @Nullable String cursor) {
        return new PageRequest(limit(limit, PAGE_LIMIT, PAGE_MAX), cursor == null ? null : StreamResume.offset("cursor", cursor));
    }

    /** A page asked for: at most {@code limit} items made before {@code before} (null: the newest). */
    public record PageRequest(int limit, @Nullable Long before) {
    }
}

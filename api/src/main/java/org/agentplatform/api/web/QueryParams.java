package org.agentplatform.api.web;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.agentplatform.api.error.ApiException;

/** Query parameters shared by list endpoints. */
public final class QueryParams {

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
}

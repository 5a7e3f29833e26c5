package org.agentplatform.api.web;

import org.agentplatform.api.error.ApiException;

/** Query parameters shared by list endpoints. */
public final class QueryParams {

    private QueryParams() {
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

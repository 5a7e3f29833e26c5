package org.agentplatform.api.web;

import java.util.regex.Pattern;
import org.agentplatform.api.error.ApiException;

/**
 * Where a resumed SSE stream starts: the one home of the {@code Last-Event-ID} header a reconnecting client sends (and
 * of {@code ?since=}, for clients that cannot set headers). A task's or conversation's stream resumes after a log offset;
 * an operation's after an event's sequence. A cursor this API cannot have returned is 400 {@code invalid_param}, never
 * a 500, however large.
 */
public final class StreamResume {

    /** The header a reconnecting SSE client sends; events after it follow. */
    public static final String HEADER = "Last-Event-ID";
    /** A decimal without leading zeros, of at most 19 digits (a long's). */
    private static final Pattern DECIMAL = Pattern.compile("0|[1-9][0-9]{0,18}");

    private StreamResume() {
    }

    /** A log's stream: after {@code Last-Event-ID}, else after {@code ?since=}, else (-1) from the start. */
    public static long afterOffset(String lastEventId, String since) {
        return lastEventId != null ? offset(HEADER, lastEventId) : since != null ? offset("since", since) : -1;
    }

    /**
     * An operation's stream: -1 (from the start) without the header, else the header's sequence; a sequence beyond any an
     * operation can have (more than a long) is {@link Long#MAX_VALUE}, which the route answers as a cursor ahead.
     */
    public static long afterSequence(String lastEventId) {
        if (lastEventId == null) {
            return -1;
        }
        if (lastEventId.length() > 128 || !lastEventId.matches("0|[1-9][0-9]*")) {
            throw ApiException.invalidParam(HEADER, "'" + HEADER + "' must be an event id of this stream");
        }
        try {
            return Long.parseLong(lastEventId);
        } catch (NumberFormatException tooLarge) {
            return Long.MAX_VALUE;
        }
    }

    /** An offset cursor this API returned ({@code param}: where it came from); anything else is 400 {@code invalid_param}. */
    public static long offset(String param, String value) {
        if (value.length() > 19 || !DECIMAL.matcher(value).matches()) {
            throw notAnOffset(param);
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException beyondALong) {
            throw notAnOffset(param);
        }
    }

    private static ApiException notAnOffset(String param) {
        return ApiException.invalidParam(param, "'" + param + "' must be an offset this API returned");
    }
}

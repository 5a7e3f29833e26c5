package org.agentplatform.api.channel;

import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.query.channel.ChannelEntry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The message-log reads of tasks and conversations: their cursors ({@code since}, {@code Last-Event-ID}: offsets
 * this API returned), the {@code include_deltas} flag, and a page of rows with the log's true {@code latest_offset}.
 */
public final class LogPages {

    /** The header a reconnecting SSE client sends; rows after it follow. */
    public static final String RESUME_HEADER = "Last-Event-ID";
    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;
    private static final Pattern OFFSET = Pattern.compile("0|[1-9][0-9]{0,18}");

    private LogPages() {
    }

    /** A log read's parameters: rows after {@code since} (-1: from the start), chunks or not, at most {@code limit}. */
    public record Query(long since, boolean deltas, int limit) {

        /** From the request's raw {@code since}, {@code include_deltas} and {@code limit} (each may be absent). */
        public static Query of(String since, String includeDeltas, String limit) {
            return new Query(since == null ? -1 : offset("since", since), flag("include_deltas", includeDeltas),
                    QueryParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT));
        }
    }

    /** Where a stream starts: after {@code Last-Event-ID}, else after {@code ?since=}, else at the start. */
    public static long streamCursor(String lastEventId, String since) {
        return lastEventId != null ? offset(RESUME_HEADER, lastEventId) : since != null ? offset("since", since) : -1;
    }

    /** A page: its rows, the log's true last offset, the cursor for the next page, whether more rows follow. */
    public record Page(List<EntryView> rows, long latestOffset, long nextSince, boolean hasMore) {
    }

    /**
     * The page of {@code rows} (read for {@code query}); {@code lastOffset} is read after them, so the latest offset it
     * reports is never below the rows'.
     */
    public static Mono<Page> page(Query query, Flux<ChannelEntry> rows, Function<ChannelEntry, EntryView> view, Mono<Long> lastOffset) {
        return rows.map(view).collectList().zipWhen(read -> lastOffset).map(found -> {
            List<EntryView> read = found.getT1();
            long last = read.isEmpty() ? query.since() : read.getLast().offset();
            return new Page(read, Math.max(found.getT2(), last), Math.max(last, 0), read.size() == query.limit());
        });
    }

    /** An offset cursor this API returned; anything else is 400 {@code invalid_param} naming {@code param}. */
    public static long offset(String param, String value) {
        if (value.length() > 128 || !OFFSET.matcher(value).matches()) {
            throw ApiException.invalidParam(param, "'" + param + "' must be an offset this API returned");
        }
        return Long.parseLong(value);
    }

    /** {@code true} or {@code false} (any case); absent is false. */
    public static boolean flag(String param, String value) {
        if (value == null || value.equalsIgnoreCase("false")) {
            return false;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        throw ApiException.invalidParam(param, "'" + param + "' must be true or false");
    }
}

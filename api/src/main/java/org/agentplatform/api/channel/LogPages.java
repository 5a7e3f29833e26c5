package org.agentplatform.api.channel;

import java.util.List;
import java.util.function.Function;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.api.web.StreamResume;
import org.agentplatform.query.channel.ChannelEntry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The message-log reads of tasks and conversations: their {@code since} cursor (an offset this API returned, read by
 * {@link StreamResume#offset}), the {@code include_deltas} flag, and a page of rows with the log's true {@code latest_offset}.
 */
public final class LogPages {

    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;

    private LogPages() {
    }

    /** A log read's parameters: rows after {@code since} (-1: from the start), chunks or not, at most {@code limit}. */
    public record Query(long since, boolean deltas, int limit) {

        /** From the request's raw {@code since}, {@code include_deltas} and {@code limit} (each may be absent). */
        public static Query of(String since, String includeDeltas, String limit) {
            return new Query(since == null ? -1 : StreamResume.offset("since", since), flag("include_deltas", includeDeltas),
                    QueryParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT));
        }
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

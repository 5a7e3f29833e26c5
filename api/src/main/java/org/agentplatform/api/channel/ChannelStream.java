package org.agentplatform.api.channel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.agentplatform.api.web.EventStreams;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelLog;
import org.agentplatform.query.feed.ChangeFeed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * A channel's log (a task's or a conversation's) as server-sent events: every row after the cursor in offset
 * order ({@code id:} = offset, {@code event:} = its kind), then, once the channel is over, its closing frames
 * ({@code error}, {@code done}, with ids of their own after the last row). A cursor older than pruned chunks first gets {@code backfill_truncated}.
 * Notifications wake the stream and the rows are read; comments keep it alive.
 */
public final class ChannelStream {

    private static final Logger log = LoggerFactory.getLogger(ChannelStream.class);
    private static final int BATCH = 500;
    private static final Object END = new Object();

    private final ChangeFeed feed;
    private final JsonMapper json;
    private final Duration heartbeat;
    private final OpenStreams open;

    /**
     * One frame: {@code id} is the row's offset, a closing frame's own ({@link #errorOffset}, {@link #doneOffset}), or null
     * for {@code backfill_truncated}, which is not part of the log.
     */
    public record Frame(String id, String event, Map<String, Object> data) {

        public static Frame of(String event, Map<String, Object> data) {
            return new Frame(null, event, data);
        }

        public static Frame at(long offset, String event, Map<String, Object> data) {
            return new Frame(Long.toString(offset), event, data);
        }
    }

    /**
     * The id of the {@code error} closing frame of a channel whose last row is at {@code lastOffset}. The closing frames
     * take the offsets just after the last row, which no row can take (the event that ends a channel starts no turn, so
     * its window holds no chunks): a client cut off after the final status resumes from it and still gets them.
     */
    public static long errorOffset(long lastOffset) {
        return lastOffset + 1;
    }

    /** The id of the {@code done} frame (see {@link #errorOffset}); a resume from it is past the stream's end. */
    public static long doneOffset(long lastOffset) {
        return lastOffset + 2;
    }

    /**
     * What a stream needs of its channel. {@code S} is the channel's snapshot (its read-model row).
     * The projection commits the row that ends a channel together with its snapshot, so a snapshot that shows it
     * over, read before the rows, means those rows hold everything up to that end.
     */
    public interface Source<S> {

        UUID channel();

        Mono<S> snapshot();

        Flux<ChannelEntry> rows(long since, int limit);

        /** The channel is over: its stream closes after its last row. */
        boolean isOver(S snapshot);

        /** The row is the one that ends the channel. */
        boolean ends(ChannelEntry row);

        /** The data of a row's frame. */
        Map<String, Object> data(ChannelEntry row);

        /** The frames that close the stream of a channel that is over ({@code error}, {@code done}). */
        List<Frame> closing(S snapshot);
    }

    public ChannelStream(ChangeFeed feed, JsonMapper json, Duration heartbeat, OpenStreams open) {
        this.feed = feed;
        this.json = json;
        this.heartbeat = heartbeat;
        this.open = open;
    }

    /**
     * @param kind          what the stream counts as ({@link OpenStreams})
     * @param opened        the channel's snapshot as the route read it to open the stream: the first batch of rows is
     *                      read after it, so it serves as that batch's snapshot (one read fewer per stream opened)
     * @param prunedThrough chunks at or below this offset are gone (null: none)
     */
    public <S> Flux<ServerSentEvent<String>> after(String kind, Source<S> source, S opened, Long prunedThrough, long cursor) {
        return after(kind, source, opened, List.of(), prunedThrough, cursor);
    }

    /**
     * As above, streaming first the rows already {@code known} from the event store (in offset order) that the read model
     * may not show yet: the rows read after them start past them. {@code opened} is null when the route did not read
     * the snapshot (the first batch reads it).
     */
    public <S> Flux<ServerSentEvent<String>> after(String kind, Source<S> source, S opened, List<ChannelEntry> known, Long prunedThrough,
            long cursor) {
        AtomicLong last = new AtomicLong(cursor);
        AtomicReference<S> firstSnapshot = new AtomicReference<>(opened);
        Flux<Object> backfill = prunedThrough != null && cursor < prunedThrough
                ? source.rows(cursor, 1).next().map(oldest -> (Object) Frame.of("backfill_truncated", backfillTruncated(oldest.offset(), cursor)))
                        .flux()
                : Flux.empty();
        // the feed is subscribed before the first read, so no commit slips between them
        Flux<Object> fromEvents = Flux.defer(() -> {
            List<Object> frames = new ArrayList<>(known.size());
            for (ChannelEntry row : known) {
                if (row.offset() > last.get()) {
                    frames.add(new Frame(Long.toString(row.offset()), row.kind(), source.data(row)));
                    last.set(row.offset());
                }
            }
            return Flux.fromIterable(frames);
        });
        Flux<Object> rows = Flux.merge(feed.on(ChannelLog.NOTIFICATIONS, source.channel().toString()).map(change -> 0L), Mono.just(0L))
                .onBackpressureLatest()
                .concatMap(wake -> drain(source, last, firstSnapshot), 1);
        return open.track(kind, Flux.merge(backfill.concatWith(fromEvents).concatWith(rows), EventStreams.keepAlive(heartbeat))
                .takeUntil(item -> item == END)
                .filter(item -> item != END)
                .map(this::event)
                .onErrorResume(failure -> {
                    log.atWarn().addKeyValue("channel", source.channel().toString()).setCause(failure).log("stream failed");
                    return Flux.just(event(Frame.of("error", errorFrame("internal_error", 500,
                            "The stream failed; reconnect with Last-Event-ID"))));
                }));
    }

    /**
     * Every row after {@code last}, batch by batch, then the closing frames once the channel is over and all its
     * rows are out. The snapshot is read before the rows: when that earlier read shows the channel over, the rows
     * read after it hold everything up to its end. (Read the other way round, a commit landing between the two
     * reads would close the stream before its last rows.) The first drain takes the snapshot the stream was opened with.
     */
    private <S> Flux<Object> drain(Source<S> source, AtomicLong last, AtomicReference<S> firstSnapshot) {
        S first = firstSnapshot.getAndSet(null);
        Mono<S> snapshot = first != null ? Mono.just(first) : source.snapshot();
        return snapshot.flatMapMany(before -> source.rows(last.get(), BATCH).collectList()
                .flatMapMany(rows -> {
                    List<Object> out = new ArrayList<>();
                    for (ChannelEntry row : rows) {
                        out.add(new Frame(Long.toString(row.offset()), row.kind(), source.data(row)));
                        last.set(row.offset());
                        if (source.ends(row)) {
                            return Flux.fromIterable(out).concatWith(source.snapshot().flatMapMany(after -> closing(source, after, last.get())));
                        }
                    }
                    if (rows.size() == BATCH) {
                        return Flux.fromIterable(out).concatWith(Flux.defer(() -> drain(source, last, firstSnapshot)));
                    }
                    // every row up to the end is at or before the cursor: the stream resumed past it
                    return source.isOver(before) ? Flux.fromIterable(out).concatWith(closing(source, before, last.get())) : Flux.fromIterable(out);
                }));
    }

    /** The closing frames after {@code cursor} (a stream resumed from the {@code error} frame gets {@code done} alone), then the end. */
    private static <S> Flux<Object> closing(Source<S> source, S snapshot, long cursor) {
        List<Object> frames = new ArrayList<>();
        for (Frame frame : source.closing(snapshot)) {
            if (frame.id() == null || Long.parseLong(frame.id()) > cursor) {
                frames.add(frame);
            }
        }
        frames.add(END);
        return Flux.fromIterable(frames);
    }

    private static Map<String, Object> backfillTruncated(long oldest, long requested) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", "backfill_truncated");
        data.put("oldest_redis_offset", oldest);
        data.put("requested_offset", requested);
        return data;
    }

    /** The data of an {@code error} frame: the code and status the blocking call would answer. */
    public static Map<String, Object> errorFrame(String code, int status, String message) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", "error");
        data.put("code", code);
        data.put("status_code", status);
        data.put("message", message);
        return data;
    }

    /** The data of the {@code done} frame. */
    public static Map<String, Object> doneFrame(String text, String contextId, String error, String code) {
        Map<String, Object> done = new LinkedHashMap<>();
        done.put("type", "done");
        done.put("text", text);
        done.put("context_id", contextId);
        done.put("is_error", code != null);
        done.put("error", error);
        done.put("code", code);
        return done;
    }

    @SuppressWarnings("unchecked")
    private ServerSentEvent<String> event(Object item) {
        if (item instanceof ServerSentEvent<?> comment) {
            return (ServerSentEvent<String>) comment;
        }
        Frame frame = (Frame) item;
        ServerSentEvent.Builder<String> builder = ServerSentEvent.builder(json.writeValueAsString(frame.data())).event(frame.event());
        return frame.id() == null ? builder.build() : builder.id(frame.id()).build();
    }
}

package org.agentplatform.api.task;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.agentplatform.api.web.EventStreams;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.channel.ChannelLog;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The inbox as a stream ({@code GET /api/v1/tasks/events}): one {@code task} frame per change of one of the owner's tasks
 * (its view without history, {@code id} its change offset), oldest change first, resumable with {@code Last-Event-ID}.
 * Woken by any commit of a channel, whoever's: the wakes are coalesced and a stream reads at most twice a second (the
 * {@code since} feed of the inbox, one indexed query), so a busy platform costs an open inbox no more than that.
 */
final class InboxStream {

    private static final Duration COALESCE = Duration.ofMillis(500);
    private static final int BATCH = 200;

    private final TaskReads tasks;
    private final ChangeFeed feed;
    private final JsonMapper json;
    private final PersonalContent content;
    private final OpenStreams open;
    private final Duration heartbeat;

    InboxStream(TaskReads tasks, ChangeFeed feed, JsonMapper json, PersonalContent content, OpenStreams open, Duration heartbeat) {
        this.tasks = tasks;
        this.feed = feed;
        this.json = json;
        this.content = content;
        this.open = open;
        this.heartbeat = heartbeat;
    }

    /** The owner's task changes after {@code cursor} (negative: after the newest change now). */
    Flux<ServerSentEvent<String>> after(OwnerId owner, @Nullable AgentId agent, long cursor) {
        Mono<Long> start = cursor >= 0 ? Mono.just(cursor)
                : tasks.list(owner, agent, null, null, Set.of(), 1).next().map(TaskRecord::changeOffset).defaultIfEmpty(0L);
        Flux<ServerSentEvent<String>> changes = start.flatMapMany(from -> {
            AtomicLong last = new AtomicLong(from);
            // the feed is subscribed before the first read, so no commit slips between them
            return Flux.merge(feed.every(ChannelLog.NOTIFICATIONS).map(change -> 0L), Mono.just(0L))
                    .onBackpressureLatest()
                    .concatMap(wake -> drain(owner, agent, last).concatWith(Mono.delay(COALESCE).then(Mono.empty())), 1);
        });
        return open.track(OpenStreams.INBOX, Flux.merge(changes, EventStreams.keepAlive(heartbeat)));
    }

    private Flux<ServerSentEvent<String>> drain(OwnerId owner, @Nullable AgentId agent, AtomicLong last) {
        return tasks.list(owner, agent, last.get(), null, Set.of(), BATCH).collectList().flatMapMany(changed -> {
            Flux<ServerSentEvent<String>> frames = Flux.fromIterable(changed).map(task -> {
                last.set(Math.max(last.get(), task.changeOffset()));
                TaskView view = TaskView.of(task, content.opener(owner));
                return ServerSentEvent.builder(json.writeValueAsString(view)).event("task").id(Long.toString(task.changeOffset())).build();
            });
            return changed.size() == BATCH ? frames.concatWith(Flux.defer(() -> drain(owner, agent, last))) : frames;
        });
    }
}

package org.agentplatform.api.task;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.agentplatform.api.agent.AgentAccess;
import org.agentplatform.api.agent.AgentAvailability;
import org.agentplatform.api.agent.TaskAccess;
import org.agentplatform.api.audit.AsOf;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.channel.ChannelStream;
import org.agentplatform.api.channel.EntryView;
import org.agentplatform.api.channel.LogPages;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.task.TaskRequests.CancelRequest;
import org.agentplatform.api.task.TaskRequests.ContinueRequest;
import org.agentplatform.api.task.TaskRequests.CreateRequest;
import org.agentplatform.api.task.TaskRequests.NewMessage;
import org.agentplatform.api.task.TaskRequests.NewTask;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.EventStreams;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.api.web.StreamResume;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.kernel.task.TaskCommand.CancelTask;
import org.agentplatform.kernel.task.TaskCommand.ContinueTask;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.agent.AgentReads;
import org.agentplatform.query.audit.PointInTime;
import org.agentplatform.query.channel.ChannelReads;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Asynchronous agent tasks: create (202 at once), list, read, cancel, continue, the message log and the
 * SSE stream of one task, and the caller's inbox across agents ({@code GET /tasks}).
 */
@RestController
final class TaskRoutes {

    private static final Duration READ_YOUR_WRITE = Duration.ofSeconds(5);
    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 200;
    private static final String CURSOR = "a previous page's next_cursor: the tasks changed before it (not with since)";
    private static final String STATUS = "only tasks in these statuses, separated by commas (e.g. queued,running)";

    private final TaskStarter starter;
    private final Commands commands;
    private final TaskReads tasks;
    private final AgentReads agents;
    private final AgentAvailability availability;
    private final TaskStream stream;
    private final PointInTime pointInTime;
    private final PersonalContent content;
    private final InboxStream inbox;

    TaskRoutes(TaskStarter starter, Commands commands, TaskReads tasks, AgentReads agents, AgentAvailability availability,
            TaskStream stream, PointInTime pointInTime, PersonalContent content, InboxStream inbox) {
        this.inbox = inbox;
        this.pointInTime = pointInTime;
        this.content = content;
        this.starter = starter;
        this.commands = commands;
        this.tasks = tasks;
        this.agents = agents;
        this.availability = availability;
        this.stream = stream;
    }

    @PostMapping(path = "/api/v1/agents/{agentId}/tasks", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    Mono<ApiResponse<TaskView>> create(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @RequestBody CreateRequest request, ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        NewTask task = request.validated();
        // the contract's 202 "at once": the task as the command stored it, not as the read model will show it
        return starter.start(caller, exchange, agent, task, TaskOrigin.TASKS)
                .map(created -> ApiResponse.of(TaskView.accepted(created.taskId(), created.contextId(), agent, TaskOrigin.TASKS,
                        created.deadline(), created.createdAt())));
    }

    @GetMapping("/api/v1/agents/{agentId}/tasks")
    Mono<ApiResponse<TaskList>> list(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @Parameter(schema = @Schema(type = "integer", format = "int64")) @RequestParam(required = false) String limit,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String since,
            @Parameter(description = CURSOR, schema = @Schema(type = "integer", format = "int64", minimum = "0"))
            @RequestParam(required = false) String cursor,
            @Parameter(description = STATUS) @RequestParam(required = false) String status) {
        AgentId agent = AgentAccess.parse(agentId);
        Listing listing = Listing.of(limit, since, cursor, status);
        return AgentAccess.readable(agents, agent, caller.ownerId()).flatMap(found -> page(caller, agent, listing));
    }

    /**
     * The caller's tasks across agents: newest changes first ({@code cursor}, a page's {@code next_cursor}, pages back to the
     * oldest), or with {@code since} every change after it, oldest first; {@code status} keeps those in the statuses named.
     */
    @GetMapping("/api/v1/tasks")
    Mono<ApiResponse<TaskList>> inbox(@AuthenticationPrincipal Caller caller,
            @Parameter(schema = @Schema(type = "integer", format = "int64")) @RequestParam(required = false) String limit,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String since,
            @RequestParam(required = false) String agentId,
            @Parameter(description = CURSOR, schema = @Schema(type = "integer", format = "int64", minimum = "0"))
            @RequestParam(required = false) String cursor,
            @Parameter(description = STATUS) @RequestParam(required = false) String status) {
        return page(caller, agentId == null ? null : agentFilter(agentId), Listing.of(limit, since, cursor, status));
    }

    /**
     * The inbox live: a {@code task} frame (the task's view, {@code id} its change offset) for every change of the caller's
     * tasks (of one agent with {@code agentId}) after {@code Last-Event-ID} or {@code since}, or, with neither, from now on.
     */
    @GetMapping("/api/v1/tasks/events")
    ResponseEntity<Flux<DataBuffer>> inboxEvents(@AuthenticationPrincipal Caller caller,
            @RequestHeader(name = StreamResume.HEADER, required = false) String lastEventId,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String since,
            @RequestParam(required = false) String agentId) {
        long cursor = StreamResume.afterOffset(lastEventId, since);
        return EventStreams.of(inbox.after(caller.ownerId(), agentId == null ? null : agentFilter(agentId), cursor));
    }

    @GetMapping("/api/v1/agents/{agentId}/tasks/{taskId}")
    Mono<ApiResponse<TaskView>> get(@AuthenticationPrincipal Caller caller, @PathVariable String agentId, @PathVariable String taskId,
            @RequestParam(name = AsOf.PARAM, required = false) String asOf) {
        Instant at = AsOf.parse(asOf);
        Mono<TaskRecord> owned = TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId());
        if (at != null) {
            return owned.flatMap(task -> AsOf.read(() -> pointInTime.task(task.id(), at), "Task " + taskId, at))
                    .map(then -> ApiResponse.of(TaskView.of(then.task(), ChannelReads.History.newest(then.log(), TaskView.SCAN_CAP),
                            content.opener(caller.ownerId()))));
        }
        return owned.flatMap(task -> tasks.history(task.id(), TaskView.SCAN_CAP)
                        .map(history -> TaskView.of(task, history, content.opener(caller.ownerId()))))
                .map(ApiResponse::of);
    }

    @PostMapping("/api/v1/agents/{agentId}/tasks/{taskId}/cancel")
    Mono<ApiResponse<TaskView>> cancel(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String taskId, @RequestBody(required = false) CancelRequest request, ServerWebExchange exchange) {
        String reason = request == null ? null : request.validatedReason();
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .flatMap(task -> commands.<Long>send(new CancelTask(task.id(), caller.ownerId(), reason), caller, exchange,
                                ErrorCode.AGENT_NOT_FOUND)
                        .flatMap(version -> tasks.awaitVersion(task.id(), version, READ_YOUR_WRITE)))
                .switchIfEmpty(Mono.error(() -> notVisibleYet()))
                .map(task -> ApiResponse.of(TaskView.of(task, content.opener(caller.ownerId()))));
    }

    @PostMapping(path = "/api/v1/agents/{agentId}/tasks/{taskId}/continue", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    Mono<ApiResponse<TaskView>> continueTask(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String taskId, @RequestBody ContinueRequest request, ServerWebExchange exchange) {
        NewMessage message = request.validated();
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .flatMap(task -> starter.attachments(caller.ownerId(), message.attachments())
                        .flatMap(attached -> availability.serving(task.instanceId())
                                .then(commands.<Long>send(new ContinueTask(task.id(), caller.ownerId(),
                                        starter.sealed(caller.ownerId(), TaskMessage.user(message.message(), attached))), caller,
                                        exchange, ErrorCode.AGENT_NOT_FOUND)))
                        .flatMap(version -> tasks.awaitVersion(task.id(), version, READ_YOUR_WRITE)))
                .switchIfEmpty(Mono.error(() -> notVisibleYet()))
                .map(task -> ApiResponse.of(TaskView.of(task, content.opener(caller.ownerId()))));
    }

    /** The task's log: every row after {@code since}; streaming chunks only with {@code include_deltas=true}. */
    @GetMapping("/api/v1/agents/{agentId}/tasks/{taskId}/messages")
    Mono<ApiResponse<TaskMessageLog>> messages(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String taskId,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String since,
            @Parameter(schema = @Schema(type = "boolean")) @RequestParam(name = "include_deltas", required = false) String includeDeltas,
            @Parameter(schema = @Schema(type = "integer", format = "int64")) @RequestParam(required = false) String limit) {
        LogPages.Query query = LogPages.Query.of(since, includeDeltas, limit);
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .flatMap(task -> LogPages.page(query, tasks.log(task.id(), query.since(), query.deltas(), query.limit()),
                                entry -> TaskView.entry(entry, content.opener(caller.ownerId())),
                                tasks.find(task.id()).map(TaskRecord::lastOffset))
                        .map(page -> new TaskMessageLog(task.id().toString(), page.rows(), page.latestOffset(), page.nextSince(), page.hasMore())))
                .map(ApiResponse::of);
    }

    /**
     * The task's SSE stream, resumable with {@code Last-Event-ID} (or {@code ?since=}): rows with a greater offset follow;
     * 204 from at or past a finished task's {@code done} frame.
     */
    @GetMapping("/api/v1/agents/{agentId}/tasks/{taskId}/events")
    Mono<ResponseEntity<Flux<DataBuffer>>> events(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String taskId, @RequestHeader(name = StreamResume.HEADER, required = false) String lastEventId,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String since) {
        long cursor = StreamResume.afterOffset(lastEventId, since);
        if (cursor < 0) {
            // from the start: a task created a moment ago streams from its events before its read model shows it
            return TaskAccess.owned(stream::open, TaskStream.Opened::task, AgentAccess.parse(agentId), taskId, caller.ownerId())
                    .map(opened -> EventStreams.of(stream.after(opened, cursor)));
        }
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .map(task -> task.status().isTerminal() && cursor >= ChannelStream.doneOffset(task.lastOffset()) ? EventStreams.finished()
                        : EventStreams.of(stream.resumed(task, cursor)));
    }

    private Mono<ApiResponse<TaskList>> page(Caller caller, @Nullable AgentId agent, Listing listing) {
        return tasks.list(caller.ownerId(), agent, listing.since(), listing.before(), listing.statuses(), listing.limit() + 1)
                .map(task -> TaskView.of(task, content.opener(task.ownerId())))
                .collectList()
                .map(found -> {
                    boolean more = found.size() > listing.limit();
                    List<TaskView> list = more ? found.subList(0, listing.limit()) : found;
                    long next = list.stream().mapToLong(TaskView::offset).max().orElse(listing.since() == null ? 0 : listing.since());
                    Long cursor = more && listing.since() == null ? list.getLast().offset() : null;
                    return ApiResponse.of(new TaskList(list, next, cursor));
                });
    }

    /** A task list's query: a page back ({@code cursor}) or a feed forward ({@code since}), not both; the statuses kept. */
    private record Listing(int limit, @Nullable Long since, @Nullable Long before, Set<String> statuses) {

        static Listing of(@Nullable String limit, @Nullable String since, @Nullable String cursor, @Nullable String status) {
            if (since != null && cursor != null) {
                throw ApiException.invalidParam("cursor", "'cursor' pages back from the newest; it cannot be sent with 'since'");
            }
            Set<String> statuses = new LinkedHashSet<>();
            if (status != null) {
                for (String name : status.split(",", -1)) {
                    String wire = name.strip();
                    if (TaskStatus.fromWireName(wire).isEmpty()) {
                        throw ApiException.invalidParam("status", "'status' must be task statuses separated by commas ("
                                + String.join(", ", Arrays.stream(TaskStatus.values()).map(TaskStatus::wireName).toList()) + ")");
                    }
                    statuses.add(wire);
                }
            }
            return new Listing(QueryParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT),
                    since == null ? null : StreamResume.offset("since", since), cursor == null ? null : StreamResume.offset("cursor", cursor),
                    Set.copyOf(statuses));
        }
    }

    private static AgentId agentFilter(String agentId) {
        try {
            return new AgentId(UUID.fromString(agentId));
        } catch (IllegalArgumentException notAnAgentId) {
            throw ApiException.invalidParam("agentId", "'agentId' must be an agent id");
        }
    }


    private static ApiException notVisibleYet() {
        return ApiException.notVisibleYet("The change", Map.of());
    }

    /**
     * A page of tasks: {@code next_since} is the greatest change offset in it (poll with {@code since} for what changed
     * after), {@code next_cursor} the cursor of the next page back (null at the oldest, and in a {@code since} feed).
     */
    record TaskList(List<TaskView> tasks, @JsonProperty("next_since") long nextSince, @JsonProperty("next_cursor") @Nullable Long nextCursor) {
    }

    /** A page of a task's log; {@code latest_offset} is the log's true maximum, {@code next_since} the cursor for the next page. */
    record TaskMessageLog(
            @JsonProperty("task_id") String taskId,
            List<EntryView> messages,
            @JsonProperty("latest_offset") long latestOffset,
            @JsonProperty("next_since") long nextSince,
            @JsonProperty("has_more") boolean hasMore) {
    }
}

package org.agentplatform.api.conversation;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.api.agent.AgentAccess;
import org.agentplatform.api.agent.AgentAvailability;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.channel.ChannelStream;
import org.agentplatform.api.channel.EntryView;
import org.agentplatform.api.channel.LogPages;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.conversation.ConversationRequests.CancelRequest;
import org.agentplatform.api.conversation.ConversationRequests.MessageRequest;
import org.agentplatform.api.conversation.ConversationRequests.OpenRequest;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.quota.BacklogSettings;
import org.agentplatform.api.task.TaskStarter;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.EventStreams;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.api.web.StreamResume;
import org.agentplatform.kernel.RandomIds;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationCommand.CancelTurn;
import org.agentplatform.kernel.conversation.ConversationCommand.CloseConversation;
import org.agentplatform.kernel.conversation.ConversationCommand.OpenConversation;
import org.agentplatform.kernel.conversation.ConversationCommand.PostMessage;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.query.agent.AgentReads;
import org.agentplatform.query.conversation.ConversationReads;
import org.agentplatform.query.conversation.ConversationRecord;
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
 * Conversations: open one with an agent, list and read them, send messages (each becomes a turn of the agent, in
 * order), read the log and stream it (one SSE stream across turns), cancel the running turn, close.
 */
@RestController
final class ConversationRoutes {

    private static final Duration READ_YOUR_WRITE = Duration.ofSeconds(5);
    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 200;
    /** The Retry-After of a message refused because too many wait in the conversation. */
    private static final long WAITING_RETRY_AFTER_SECONDS = 1;

    private final Commands commands;
    private final ConversationReads conversations;
    private final AgentReads agents;
    private final AgentAvailability availability;
    private final TaskStarter starter;
    private final ConversationStream stream;
    private final BacklogSettings backlog;
    private final PersonalContent content;
    private final Clock clock;

    ConversationRoutes(Commands commands, ConversationReads conversations, AgentReads agents, AgentAvailability availability,
            TaskStarter starter, ConversationStream stream, BacklogSettings backlog, PersonalContent content, Clock clock) {
        this.backlog = backlog;
        this.content = content;
        this.commands = commands;
        this.conversations = conversations;
        this.agents = agents;
        this.availability = availability;
        this.starter = starter;
        this.stream = stream;
        this.clock = clock;
    }

    @PostMapping(path = "/api/v1/agents/{agentId}/conversations", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<ApiResponse<ConversationView>> open(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @RequestBody(required = false) OpenRequest request, ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        OpenRequest open = request == null ? new OpenRequest(null, null, null) : request.validated();
        ConversationId id = open.idempotencyKey() == null ? ConversationId.random()
                : ConversationId.derivedFrom(String.join("\n", "conversation", caller.ownerId().toString(), agent.toString(),
                        open.idempotencyKey()));
        String contextId = open.contextId() != null ? open.contextId() : RandomIds.uuid().toString();
        return AgentAccess.readableOnInstance(agents, agent, caller.ownerId())
                .flatMap(found -> AgentAvailability.serving(found).then(commands.send(new OpenConversation(id, caller.ownerId(), agent,
                        found.agent().instanceId(), contextId, open.title()), caller, exchange, ErrorCode.AGENT_NOT_FOUND)))
                .onErrorMap(ApiException.class, refused -> refused.code() == ErrorCode.CONFLICT
                        ? new ApiException(ErrorCode.CONFLICT, "Duplicate idempotency_key: a conversation was opened with this key already",
                                "", Map.of("conversation_id", id.toString()), null)
                        : refused)
                .then(Mono.defer(() -> conversations.awaitVersion(id, 0, READ_YOUR_WRITE)))
                .map(conversation -> ConversationView.of(conversation, content.opener(caller.ownerId())))
                .defaultIfEmpty(ConversationView.opened(id, agent, contextId, open.title(), clock.instant()))
                .map(ApiResponse::of);
    }

    /** The caller's conversations with the agent, the newest first; {@code cursor} (a page's {@code next_cursor}) pages on. */
    @GetMapping("/api/v1/agents/{agentId}/conversations")
    Mono<ApiResponse<ConversationList>> list(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @Parameter(schema = @Schema(type = "integer", format = "int64")) @RequestParam(required = false) String limit,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String cursor) {
        AgentId agent = AgentAccess.parse(agentId);
        int clamped = QueryParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        Long before = cursor == null ? null : StreamResume.offset("cursor", cursor);
        return AgentAccess.readable(agents, agent, caller.ownerId())
                .flatMap(found -> conversations.list(caller.ownerId(), agent, before, clamped).collectList())
                .map(page -> ApiResponse.of(new ConversationList(page.stream()
                        .map(conversation -> ConversationView.of(conversation, content.opener(caller.ownerId()))).toList(),
                        page.size() == clamped ? page.getLast().openedOffset() : null)));
    }

    @GetMapping("/api/v1/agents/{agentId}/conversations/{convId}")
    Mono<ApiResponse<ConversationView>> get(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String convId) {
        return ConversationAccess.owned(conversations, AgentAccess.parse(agentId), convId, caller.ownerId())
                .map(conversation -> ApiResponse.of(ConversationView.of(conversation, content.opener(caller.ownerId()))));
    }

    /**
     * Sends a message: 202 at once with its id and a {@code cursor} (read the log or the stream from it to see the
     * message and the agent's answer). It waits behind the turns before it; a repeated {@code idempotency_key} is 409;
     * when the conversation has as many messages waiting as it takes ({@link BacklogSettings#maxWaitingMessages}), 429.
     */
    @PostMapping(path = "/api/v1/agents/{agentId}/conversations/{convId}/messages", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    Mono<ApiResponse<Sent>> send(@AuthenticationPrincipal Caller caller, @PathVariable String agentId, @PathVariable String convId,
            @RequestBody MessageRequest request, ServerWebExchange exchange) {
        MessageRequest message = request.validated();
        return ConversationAccess.owned(conversations, AgentAccess.parse(agentId), convId, caller.ownerId())
                .flatMap(conversation -> {
                    UUID messageId = message.idempotencyKey() == null ? RandomIds.uuid()
                            : UUID.nameUUIDFromBytes(String.join("\n", "message", conversation.id().toString(), message.idempotencyKey())
                                    .getBytes(StandardCharsets.UTF_8));
                    // every row of the message comes after what the conversation shows now: the cursor is that
                    return starter.attachments(caller.ownerId(), message.attachments())
                            .flatMap(attached -> availability.serving(conversation.instanceId())
                                    .then(commands.<Long>send(new PostMessage(conversation.id(), caller.ownerId(), messageId,
                                            starter.sealed(caller.ownerId(), TaskMessage.user(message.message(), attached)),
                                            backlog.maxWaitingMessages()), caller, exchange,
                                            ErrorCode.AGENT_NOT_FOUND)))
                            .onErrorMap(ApiException.class, refused -> switch (refused.code()) {
                                case CONFLICT -> refused.getMessage().startsWith(PostMessage.DUPLICATE)
                                        ? new ApiException(ErrorCode.CONFLICT, "Duplicate idempotency_key: a message was sent with this key already",
                                                "", Map.of("message_id", messageId.toString()), null)
                                        : refused;
                                // a place frees when the running turn ends, which only the agent knows: ask again soon
                                case RATE_LIMITED -> new ApiException(ErrorCode.RATE_LIMITED, refused.getMessage(), "",
                                        Map.of("limit", Integer.toString(backlog.maxWaitingMessages()), "retry_after_seconds",
                                                Long.toString(WAITING_RETRY_AFTER_SECONDS)), WAITING_RETRY_AFTER_SECONDS);
                                default -> refused;
                            })
                            .thenReturn(new Sent(messageId.toString(), conversation.id().toString(),
                                    conversation.lastOffset()));
                })
                .map(ApiResponse::of);
    }

    /** The conversation's log: every row after {@code since}; streaming chunks only with {@code include_deltas=true}. */
    @GetMapping("/api/v1/agents/{agentId}/conversations/{convId}/messages")
    Mono<ApiResponse<ConversationMessageLog>> messages(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String convId,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String since,
            @Parameter(schema = @Schema(type = "boolean")) @RequestParam(name = "include_deltas", required = false) String includeDeltas,
            @Parameter(schema = @Schema(type = "integer", format = "int64")) @RequestParam(required = false) String limit) {
        LogPages.Query query = LogPages.Query.of(since, includeDeltas, limit);
        return ConversationAccess.owned(conversations, AgentAccess.parse(agentId), convId, caller.ownerId())
                .flatMap(conversation -> LogPages.page(query, conversations.log(conversation.id(), query.since(), query.deltas(),
                                query.limit()), entry -> ConversationView.entry(entry, content.opener(caller.ownerId())),
                                conversations.find(conversation.id()).map(ConversationRecord::lastOffset))
                        .map(page -> new ConversationMessageLog(conversation.id().toString(), page.rows(), page.latestOffset(), page.nextSince(),
                                page.hasMore())))
                .map(ApiResponse::of);
    }

    /** The conversation's SSE stream across turns, resumable with {@code Last-Event-ID} (or {@code ?since=}); 204 from its {@code done} once closed. */
    @GetMapping("/api/v1/agents/{agentId}/conversations/{convId}/events")
    Mono<ResponseEntity<Flux<DataBuffer>>> events(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String convId, @RequestHeader(name = StreamResume.HEADER, required = false) String lastEventId,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String since) {
        long cursor = StreamResume.afterOffset(lastEventId, since);
        return ConversationAccess.owned(conversations, AgentAccess.parse(agentId), convId, caller.ownerId())
                .map(conversation -> conversation.isClosed() && cursor >= ChannelStream.doneOffset(conversation.lastOffset()) ? EventStreams.finished()
                        : EventStreams.of(stream.after(conversation, cursor)));
    }

    /** Cancels the running turn (409 when none runs); the messages waiting behind it go on. */
    @PostMapping("/api/v1/agents/{agentId}/conversations/{convId}/cancel")
    Mono<ApiResponse<ConversationView>> cancel(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String convId, @RequestBody(required = false) CancelRequest request, ServerWebExchange exchange) {
        String reason = request == null ? null : request.validatedReason();
        return ConversationAccess.owned(conversations, AgentAccess.parse(agentId), convId, caller.ownerId())
                .flatMap(conversation -> commands.<Long>send(new CancelTurn(conversation.id(), caller.ownerId(), reason), caller, exchange,
                                ErrorCode.AGENT_NOT_FOUND)
                        .flatMap(version -> conversations.awaitVersion(conversation.id(), version, READ_YOUR_WRITE)))
                .switchIfEmpty(Mono.error(ConversationRoutes::notVisibleYet))
                .map(conversation -> ApiResponse.of(ConversationView.of(conversation, content.opener(caller.ownerId()))));
    }

    /** Closes the conversation (a running turn is canceled); closing a closed one answers it as it is. */
    @PostMapping("/api/v1/agents/{agentId}/conversations/{convId}/close")
    Mono<ApiResponse<ConversationView>> close(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String convId, ServerWebExchange exchange) {
        return ConversationAccess.owned(conversations, AgentAccess.parse(agentId), convId, caller.ownerId())
                .flatMap(conversation -> commands.<Long>send(new CloseConversation(conversation.id(), caller.ownerId()), caller, exchange,
                                ErrorCode.AGENT_NOT_FOUND)
                        .flatMap(version -> conversations.awaitVersion(conversation.id(), version, READ_YOUR_WRITE)))
                .switchIfEmpty(Mono.error(ConversationRoutes::notVisibleYet))
                .map(conversation -> ApiResponse.of(ConversationView.of(conversation, content.opener(caller.ownerId()))));
    }

    private static ApiException notVisibleYet() {
        return new ApiException(ErrorCode.SERVICE_TIMEOUT, "The change was accepted but is not visible yet; read the conversation again shortly");
    }

    /** A page of conversations; {@code next_cursor} is null on the last page. */
    record ConversationList(List<ConversationView> conversations, @JsonProperty("next_cursor") @Nullable Long nextCursor) {
    }

    /** The answer to a message: its id and the cursor to read or stream the conversation from (no offset: it has none yet). */
    record Sent(@JsonProperty("message_id") String messageId, @JsonProperty("conversation_id") String conversationId, long cursor) {
    }

    /** A page of a conversation's log; {@code latest_offset} is the log's true maximum, {@code next_since} the cursor for the next page. */
    record ConversationMessageLog(
            @JsonProperty("conversation_id") String conversationId,
            List<EntryView> messages,
            @JsonProperty("latest_offset") long latestOffset,
            @JsonProperty("next_since") long nextSince,
            @JsonProperty("has_more") boolean hasMore) {
    }
}

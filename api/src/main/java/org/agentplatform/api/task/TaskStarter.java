package org.agentplatform.api.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.agentplatform.api.agent.AgentAccess;
import org.agentplatform.api.agent.AgentAvailability;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.file.FileStore;
import org.agentplatform.api.quota.OwnerBacklog.Work;
import org.agentplatform.api.quota.OwnerBacklog;
import org.agentplatform.api.task.TaskRequests.AttachmentRequest;
import org.agentplatform.api.task.TaskRequests.NewTask;
import org.agentplatform.api.webhook.WebhookRegistrar;
import org.agentplatform.kernel.RandomIds;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.kernel.task.Attachment;
import org.agentplatform.kernel.task.TaskCommand.CreateTask;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.query.SqlTime;
import org.agentplatform.query.agent.AgentReads;
import org.agentplatform.query.agent.AgentRecord;
import org.agentplatform.query.webhook.WebhookReads;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Creating a task, for the tasks API and invoke alike: the agent must be readable by the caller (own or
 * public), its attachments confirmed files of the caller, its instance running. An idempotency key makes
 * the task id derive from it, so a repeat collides (409 {@code conflict}) instead of creating twice. Past the
 * owner's bound on unfinished tasks (invokes apart) a create is refused 429 {@code rate_limited} ({@link OwnerBacklog}).
 */
@Component
public final class TaskStarter {

    /** How long a create with webhooks waits for them to be listed; the task is accepted either way. */
    private static final Duration WEBHOOKS_VISIBLE = Duration.ofSeconds(5);

    private final Commands commands;
    private final AgentReads agents;
    private final FileStore files;
    private final WebhookRegistrar registrar;
    private final WebhookReads webhooks;
    private final OwnerBacklog backlog;
    private final PersonalContent content;
    private final Clock clock;

    TaskStarter(Commands commands, AgentReads agents, FileStore files, WebhookRegistrar registrar, WebhookReads webhooks,
            OwnerBacklog backlog, PersonalContent content, Clock clock) {
        this.commands = commands;
        this.content = content;
        this.backlog = backlog;
        this.agents = agents;
        this.files = files;
        this.registrar = registrar;
        this.webhooks = webhooks;
        this.clock = clock;
    }

    /**
     * What was created: the task id and context id the caller gets at once, and the instants as the store holds them
     * ({@code deadline} null when none was asked for), which every later read shows.
     */
    record Created(TaskId taskId, String contextId, AgentRecord agent, Instant createdAt, Instant deadline) {
    }

    Mono<Created> start(Caller caller, ServerWebExchange exchange, AgentId agent, NewTask request, TaskOrigin origin) {
        Instant deadline = request.deadline() == null ? null : clock.instant().plus(request.deadline());
        return AgentAccess.readableOnInstance(agents, agent, caller.ownerId())
                .flatMap(found -> attachments(caller.ownerId(), request.attachments())
                        .flatMap(attached -> AgentAvailability.serving(found)
                                .flatMap(epoch -> create(caller, exchange, found.agent(), request, origin, deadline, attached, epoch))));
    }

    /** The caller's confirmed files, in order; the first that is not one is 400 {@code invalid_param} naming it. */
    public Mono<List<Attachment>> attachments(OwnerId owner, List<AttachmentRequest> requested) {
        return Flux.range(0, requested.size())
                .concatMap(index -> {
                    AttachmentRequest attachment = requested.get(index);
                    return files.confirmed(owner, attachment.fileId())
                            .switchIfEmpty(Mono.error(() -> ApiException.invalidParam("attachments[" + index + "].file_id",
                                    "No uploaded file " + attachment.fileId() + " of this owner")))
                            .map(file -> new Attachment(file.fileId(), attachment.name() != null ? attachment.name() : file.filename(),
                                    file.contentType(), file.sizeBytes(), file.sha256()));
                })
                .collectList();
    }

    /** The caller's message as it is stored: its personal parts sealed with the owner's data key. */
    public TaskMessage sealed(OwnerId owner, TaskMessage message) {
        return message.personal(content.sealer(owner));
    }

    private Mono<Created> create(Caller caller, ServerWebExchange exchange, AgentRecord agent, NewTask request, TaskOrigin origin,
            Instant deadline, List<Attachment> attachments, long runtimeEpoch) {
        TaskId task = request.idempotencyKey() == null ? TaskId.random()
                : TaskId.derivedFrom(String.join("\n", "task", caller.ownerId().toString(), agent.id().toString(), origin.wireName(),
                        request.idempotencyKey()));
        String contextId = request.contextId() != null ? request.contextId() : RandomIds.uuid().toString();
        CreateTask command = new CreateTask(task, caller.ownerId(), agent.id(), agent.instanceId(), contextId,
                sealed(caller.ownerId(), TaskMessage.user(request.message(), attachments)), deadline, origin, runtimeEpoch);
        // webhooks first: the fan-out sees them before the task's first transition, so they get "queued" too
        // and a list of the task's webhooks read after the 202 shows them (a wait woken by the projection's commit)
        // a place in the owner's backlog first; a create that fails gives it back
        return backlog.admit(caller.ownerId(), origin == TaskOrigin.INVOKE ? Work.INVOKES : Work.TASKS, task)
                .flatMap(place -> Flux.fromIterable(request.webhooks())
                        .concatMap(webhook -> registrar.register(caller, exchange, task, webhook))
                        .collectList()
                        .flatMap(registered -> commands.<Instant>send(command, caller, exchange, ErrorCode.AGENT_NOT_FOUND)
                                .flatMap(storedAt -> Flux.fromIterable(registered)
                                        .concatMap(webhook -> webhooks.awaitVersion(webhook.webhookId(), webhook.version(), WEBHOOKS_VISIBLE))
                                        .then(Mono.just(new Created(task, contextId, agent, storedAt,
                                                deadline == null ? null : SqlTime.asStored(deadline))))))
                        .doOnError(failed -> place.release())
                        .doOnCancel(place::release))
                .onErrorMap(ApiException.class, refused -> refused.code() == ErrorCode.CONFLICT
                        ? new ApiException(ErrorCode.CONFLICT, "Duplicate idempotency_key: a task was created with this key already",
                                "", Map.of("task_id", task.toString()), null)
                        : refused);
    }
}

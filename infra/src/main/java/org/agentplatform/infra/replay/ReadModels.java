package org.agentplatform.infra.replay;

import java.util.List;
import java.util.Optional;
import org.agentplatform.query.agent.AgentProjection;
import org.agentplatform.query.conversation.ConversationProjection;
import org.agentplatform.query.instance.InstanceProjection;
import org.agentplatform.query.operation.OperationViewProjection;
import org.agentplatform.query.replay.ReadModel.Table;
import org.agentplatform.query.replay.ReadModel;
import org.agentplatform.query.task.TaskProjection;
import org.agentplatform.query.terminal.TerminalProjection;
import org.agentplatform.query.webhook.WebhookProjection;
import org.springframework.jdbc.core.JdbcTemplate;

/** The read models the projections keep, each with the tables it writes (what a rebuild or a point-in-time read folds). */
public final class ReadModels {

    private static final String PRUNED_THROUGH = "pruned_through";

    private final List<ReadModel> all;

    public ReadModels(JdbcTemplate jdbc) {
        this.all = List.of(
                new ReadModel(TaskProjection.GROUP, new TaskProjection(jdbc), List.of(
                        new Table("task_view", null, List.of(PRUNED_THROUGH), "id"),
                        new Table("channel_message", "channel_id IN (SELECT id FROM %s.task_view)", List.of(), null))),
                new ReadModel(ConversationProjection.GROUP, new ConversationProjection(jdbc), List.of(
                        new Table("conversation_view", null, List.of(PRUNED_THROUGH), "id"),
                        new Table("channel_message", "channel_id IN (SELECT id FROM %s.conversation_view)", List.of(), null))),
                new ReadModel(OperationViewProjection.GROUP, new OperationViewProjection(jdbc),
                        List.of(Table.of("operation_view"), Table.of("operation_event"))),
                new ReadModel(WebhookProjection.GROUP, new WebhookProjection(jdbc), List.of(Table.of("webhook_view"), Table.of("delivery_view"))),
                new ReadModel(AgentProjection.GROUP, new AgentProjection(jdbc), List.of(Table.of("agent_view"), Table.of("agent_skill_view"))),
                new ReadModel(InstanceProjection.GROUP, new InstanceProjection(jdbc), List.of(Table.of("instance_view"))),
                new ReadModel(TerminalProjection.GROUP, new TerminalProjection(jdbc), List.of(Table.of("terminal_view"))));
    }

    public List<ReadModel> all() {
        return all;
    }

    public Optional<ReadModel> named(String processor) {
        return all.stream().filter(model -> model.processor().equals(processor)).findFirst();
    }

    public ReadModel get(String processor) {
        return named(processor).orElseThrow(() -> new IllegalArgumentException("No read model is kept by " + processor));
    }
}

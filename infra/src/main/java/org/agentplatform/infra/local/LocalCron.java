package org.agentplatform.infra.local;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.command.operation.RuntimeCall;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.kernel.task.TaskCommand.CreateTask;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code cron/*}: scheduled prompts of an agent. Schedules are cron expressions (5 fields, or 6 with
 * seconds, or macros such as {@code @hourly}). A run creates a task of the agent's owner with the prompt
 * (origin {@code cron}); {@link #runDue} starts the runs that are due (the scheduler calls it).
 */
final class LocalCron {

    private static final Logger log = LoggerFactory.getLogger(LocalCron.class);
    private static final String COLUMNS = "cron_id, agent_id, name, schedule, prompt, enabled, next_run_at, last_run_at";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final LocalAgents agents;
    /** The task a run creates has its prompt sealed with the owner's data key, as a caller's message is. */
    private final PersonalContent content;
    private final CronTasks tasks;
    private final Clock clock;

    LocalCron(JdbcTemplate jdbc, TransactionTemplate transactions, LocalAgents agents, CronTasks tasks, PersonalContent content,
            Clock clock) {
        this.content = content;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.agents = agents;
        this.tasks = tasks;
        this.clock = clock;
    }
    Object add(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        UUID agent = params.id("agentId");
        agents.require(instance, agent);
        String schedule = params.text("schedule", 200);
        CronExpression expression = parse(schedule);
        boolean enabled = !Boolean.FALSE.equals(params.optionalBoolean("enabled"));
        UUID cron = UUID.nameUUIDFromBytes(("cron/add:" + call.operationId()).getBytes(StandardCharsets.UTF_8));
        String name = params.optionalText("name") == null ? "cron-" + cron.toString().substring(0, 8) : params.text("name", 128);
        OffsetDateTime now = now();
        jdbc.update("INSERT INTO local_cron (cron_id, instance_id, agent_id, name, schedule, prompt, enabled, next_run_at, created_at,"
                        + " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                cron, instance, agent, name, schedule, params.text("prompt", 16_000), enabled,
                enabled ? next(expression, clock.instant()) : null, now, now);
        return entry(instance, cron);
    }

    Object list(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        String agent = params.optionalText("agentId");
        List<Map<String, Object>> entries = agent == null
                ? jdbc.query("SELECT " + COLUMNS + " FROM local_cron WHERE instance_id = ? ORDER BY created_at, cron_id",
                        (row, index) -> entryRow(row), instance)
                : jdbc.query("SELECT " + COLUMNS + " FROM local_cron WHERE instance_id = ? AND agent_id = ? ORDER BY created_at, cron_id",
                        (row, index) -> entryRow(row), instance, params.id("agentId"));
        return Map.of("entries", entries);
    }

    Object status(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        UUID cron = requireCron(instance, params);
        Map<String, Object> status = entry(instance, cron);
        List<Map<String, Object>> last = runs(cron, 1);
        status.put("lastRun", last.isEmpty() ? null : last.getFirst());
        return status;
    }

    Object update(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        UUID cron = requireCron(instance, params);
        String schedule = params.optionalText("schedule");
        if (schedule != null) {
            parse(schedule);
        }
        String name = params.optionalText("name") == null ? null : params.text("name", 128);
        jdbc.update("UPDATE local_cron SET schedule = COALESCE(?, schedule), prompt = COALESCE(?, prompt), name = COALESCE(?, name),"
                        + " enabled = COALESCE(?, enabled), updated_at = ? WHERE cron_id = ?",
                schedule, params.optionalText("prompt"), name, params.optionalBoolean("enabled"), now(), cron);
        Map<String, Object> entry = entry(instance, cron);
        boolean enabled = Boolean.TRUE.equals(entry.get("enabled"));
        jdbc.update("UPDATE local_cron SET next_run_at = ? WHERE cron_id = ?",
                enabled ? next(parse((String) entry.get("schedule")), clock.instant()) : null, cron);
        return entry(instance, cron);
    }

    Object remove(RuntimeCall call, Params params) {
        UUID cron = requireCron(call.instanceId().value(), params);
        jdbc.update("DELETE FROM local_cron WHERE cron_id = ?", cron);
        return Map.of("cronId", cron.toString(), "removed", true);
    }

    Object run(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        UUID cron = requireCron(instance, params);
        UUID run = UUID.nameUUIDFromBytes(("cron/run:" + call.operationId()).getBytes(StandardCharsets.UTF_8));
        start(instance, cron, run, "manual");
        return Map.of("cronId", cron.toString(), "runId", run.toString(), "status", "running");
    }

    Object listRuns(RuntimeCall call, Params params) {
        UUID cron = requireCron(call.instanceId().value(), params);
        Integer limit = params.optionalInteger("limit");
        int clamped = limit == null ? 20 : Math.max(1, Math.min(100, limit));
        return Map.of("cronId", cron.toString(), "runs", runs(cron, clamped));
    }

    /** Starts every enabled entry of a running instance whose time has come; each starts once, on one node. */
    void runDue() {
        List<Map<String, Object>> due = transactions.execute(status -> {
            List<Map<String, Object>> entries = jdbc.queryForList("SELECT c.cron_id, c.instance_id, c.schedule FROM local_cron c"
                    + " JOIN local_instance i ON i.instance_id = c.instance_id"
                    + " WHERE c.enabled AND c.next_run_at <= ? AND i.state = 'running' FOR UPDATE OF c SKIP LOCKED", now());
            for (Map<String, Object> entry : entries) {
                jdbc.update("UPDATE local_cron SET next_run_at = ? WHERE cron_id = ?",
                        next(parse((String) entry.get("schedule")), clock.instant()), entry.get("cron_id"));
                start((UUID) entry.get("instance_id"), (UUID) entry.get("cron_id"), UUID.randomUUID(), "schedule");
            }
            return entries;
        });
        if (due != null && !due.isEmpty()) {
            log.atInfo().addKeyValue("runs", due.size()).log("started due cron runs");
        }
    }

    /** Records the run with its task's id; once the surrounding transaction commits, creates the task. */
    private void start(UUID instance, UUID cron, UUID run, String trigger) {
        Map<String, Object> entry = jdbc.queryForMap("SELECT c.agent_id, c.prompt, i.owner_id FROM local_cron c"
                + " JOIN local_instance i ON i.instance_id = c.instance_id WHERE c.cron_id = ?", cron);
        TaskId task = TaskId.derivedFrom("cron-run:" + run);
        int inserted = jdbc.update("INSERT INTO local_cron_run (run_id, cron_id, instance_id, trigger, status, task_id, started_at)"
                + " VALUES (?, ?, ?, ?, 'started', ?, ?) ON CONFLICT DO NOTHING", run, cron, instance, trigger, task.value(), now());
        jdbc.update("UPDATE local_cron SET last_run_at = ? WHERE cron_id = ?", now(), cron);
        if (inserted == 0) {
            return;
        }
        OwnerId owner = new OwnerId((UUID) entry.get("owner_id"));
        CreateTask create = new CreateTask(task, owner, new AgentId((UUID) entry.get("agent_id")), new InstanceId(instance),
                cron.toString(), TaskMessage.user(content.seal(owner, (String) entry.get("prompt")), List.of()), null, TaskOrigin.CRON, null);
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                tasks.create(create);
            }
        });
    }

    /** A run's status follows its task: running until the task settles, then succeeded (completed) or failed. */
    private List<Map<String, Object>> runs(UUID cron, int limit) {
        return jdbc.query("SELECT r.run_id, r.trigger, r.task_id, r.started_at, t.status, t.text, t.error_message, t.updated_at"
                + " FROM local_cron_run r LEFT JOIN task_view t ON t.id = r.task_id"
                + " WHERE r.cron_id = ? ORDER BY r.started_at DESC, r.run_id LIMIT ?", (row, index) -> {
                    TaskStatus task = TaskStatus.fromWireName(row.getString("status")).orElse(TaskStatus.QUEUED);
                    boolean done = task.isTerminal();
                    Map<String, Object> run = new LinkedHashMap<>();
                    run.put("runId", row.getString("run_id"));
                    run.put("trigger", row.getString("trigger"));
                    run.put("taskId", row.getString("task_id"));
                    run.put("taskStatus", task.wireName());
                    run.put("status", !done ? "running" : task == TaskStatus.COMPLETED ? "succeeded" : "failed");
                    run.put("output", task == TaskStatus.COMPLETED ? row.getString("text") : null);
                    run.put("error", done && task != TaskStatus.COMPLETED ? row.getString("error_message") : null);
                    run.put("startedAt", text(row.getObject("started_at", OffsetDateTime.class)));
                    run.put("finishedAt", done ? text(row.getObject("updated_at", OffsetDateTime.class)) : null);
                    return run;
                }, cron, limit);
    }

    private UUID requireCron(UUID instance, Params params) {
        UUID cron = params.id("cronId");
        Integer found = jdbc.queryForObject("SELECT count(*) FROM local_cron WHERE cron_id = ? AND instance_id = ?", Integer.class,
                cron, instance);
        if (found == null || found == 0) {
            throw RuntimeRefusal.notFound("CRON_NOT_FOUND", "Cron entry", cron.toString());
        }
        return cron;
    }

    private Map<String, Object> entry(UUID instance, UUID cron) {
        return jdbc.queryForObject("SELECT " + COLUMNS + " FROM local_cron WHERE cron_id = ? AND instance_id = ?",
                (row, index) -> entryRow(row), cron, instance);
    }

    private static Map<String, Object> entryRow(ResultSet row) throws SQLException {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("cronId", row.getString("cron_id"));
        entry.put("agentId", row.getString("agent_id"));
        entry.put("name", row.getString("name"));
        entry.put("schedule", row.getString("schedule"));
        entry.put("prompt", row.getString("prompt"));
        entry.put("enabled", row.getBoolean("enabled"));
        entry.put("nextRunAt", text(row.getObject("next_run_at", OffsetDateTime.class)));
        entry.put("lastRunAt", text(row.getObject("last_run_at", OffsetDateTime.class)));
        return entry;
    }

    static CronExpression parse(String schedule) {
        String expression = schedule.strip();
        if (!expression.startsWith("@") && expression.split("\\s+").length == 5) {
            expression = "0 " + expression;
        }
        try {
            return CronExpression.parse(expression);
        } catch (IllegalArgumentException malformed) {
            throw RuntimeRefusal.invalidParams("'schedule' is not a cron expression: " + malformed.getMessage());
        }
    }

    private static OffsetDateTime next(CronExpression expression, Instant after) {
        return expression.next(OffsetDateTime.ofInstant(after, ZoneOffset.UTC));
    }

    private static String text(OffsetDateTime time) {
        return time == null ? null : time.toInstant().toString();
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }
}

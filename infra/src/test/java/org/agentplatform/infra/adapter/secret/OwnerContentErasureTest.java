package org.agentplatform.infra.adapter.secret;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.agentplatform.infra.adapter.identity.IdentityConfiguration;
import org.agentplatform.infra.adapter.identity.UserAdmin;
import org.agentplatform.infra.audit.AuditCheckpoints;
import org.agentplatform.infra.cli.AuditCommand;
import org.agentplatform.infra.cli.OwnersCommand;
import org.agentplatform.infra.cli.ProjectionsCommand;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.StandaloneService;
import org.agentplatform.infra.support.WebhookReceiver;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Crypto-shredding through real HTTP on a service of its own: an owner's messages, replies and streamed chunks are sealed
 * before anything stores them (no table holds their plaintext, nor any log line), read back in clear by their owner, and
 * read {@code "[erased]"} everywhere once the owner erases its content, while another owner's stay, the audit chain
 * verifies, and the read models rebuilt from the store equal the live ones.
 */
class OwnerContentErasureTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dataDir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

    @BeforeEach
    void captureLogs() {
        logs.start();
        root().addAppender(logs);
    }

    @AfterEach
    void stopCapturing() {
        root().detachAppender(logs);
    }

    @Test
    void anErasedOwnersContentReadsErasedEverywhereAndNoTableEverHeldItsPlaintext() throws IOException {
        String secret = "whisper" + UUID.randomUUID().toString().replace("-", "");
        String kept = "keepsake" + UUID.randomUUID().toString().replace("-", "");
        String agent;
        String task;
        String conversation;
        String otherAgent;
        String otherTask;
        try (ConfigurableApplicationContext service = start()) {
            PlatformClient owner = StandaloneService.client(service, dataDir);
            PlatformClient other = secondOwner(service);
            agent = owner.createAgent(owner.runningInstance("linux"), "erased");
            String file = uploaded(service, owner, secret + ".txt");
            // one delta: the secret whole in a chunk too, where a search for it would find it if it were kept in clear
            try (WebhookReceiver receiver = new WebhookReceiver()) {
                task = owner.task(agent, Map.of("message", secret + " is the plan\n/echo deltas=1",
                        "attachments", List.of(Map.of("file_id", file)), "webhooks", List.of(Map.of("url", receiver.url("/hook")))))
                        .at("/data/task_id").asString();
                owner.awaitTask(agent, task, "completed");
                assertThat(receiver.await("/hook", 3)).as("the callbacks carry statuses, not content")
                        .noneMatch(callback -> callback.text().contains(secret));
            }
            conversation = owner.conversation(agent);
            owner.say(agent, conversation, secret + " said first");
            owner.awaitTurn(agent, conversation, 1, "completed");
            owner.say(agent, conversation, "/echo history");
            JsonNode recounted = owner.awaitTurn(agent, conversation, 2, "completed");
            otherAgent = other.createAgent(other.runningInstance("linux"), "kept");
            otherTask = other.task(otherAgent, kept + " stays");
            other.awaitTask(otherAgent, otherTask, "completed");

            // in clear for the owner, through every read; the runtime read its earlier turns opened
            assertThat(owner.taskView(agent, task).get("text").asString()).contains(secret);
            assertThat(texts(owner.get("/api/v1/agents/{a}/tasks/{t}/messages?include_deltas=true", agent, task)))
                    .filteredOn(text -> text.contains(secret)).hasSizeGreaterThanOrEqualTo(3); // the message, a chunk, the reply
            assertThat(recounted.get("text").asString()).as("the agent's recount of the earlier turns").contains(secret);
            assertThat(texts(owner.taskEvents(agent, task, null, 100))).anyMatch(text -> text.contains(secret));
            assertThat(audit(owner, "task", task)).contains(secret);
            assertThat(attachmentNames(owner, agent, task)).containsExactly(secret + ".txt");
            body(owner.get("/api/v1/files/presign-download?file_id={f}", file).exchange(), 200);

            // ... and sealed wherever it is kept
            JdbcTemplate jdbc = service.getBean(JdbcTemplate.class);
            assertThat(tablesHolding(jdbc, secret)).as("tables holding the owner's plaintext").isEmpty();
            assertThat(tablesHolding(jdbc, kept)).as("tables holding the other owner's plaintext").isEmpty();

            JsonNode erased = body(owner.delete("/api/v1/owners/me/content").exchange(), 200).get("data");
            assertThat(erased.get("keys_destroyed").asInt()).isEqualTo(1);
            assertThat(erased.get("files_deleted").asInt()).isEqualTo(1);
            body(owner.get("/api/v1/files/presign-download?file_id={f}", file).exchange(), 404);
            assertThat(attachmentNames(owner, agent, task)).containsExactly(PersonalContent.ERASED);

            assertThat(owner.taskView(agent, task).get("text").asString()).isEqualTo(PersonalContent.ERASED);
            List<String> log = texts(owner.get("/api/v1/agents/{a}/tasks/{t}/messages?include_deltas=true", agent, task));
            assertThat(log).isNotEmpty().doesNotContain(secret).allMatch(text -> text.equals(PersonalContent.ERASED));
            assertThat(texts(owner.taskEvents(agent, task, null, 100))).isNotEmpty().allMatch(PersonalContent.ERASED::equals);
            assertThat(owner.conversationView(agent, conversation).get("text").asString()).isEqualTo(PersonalContent.ERASED);
            assertThat(owner.conversationLog(agent, conversation, true).get("messages").valueStream()
                    .filter(row -> row.has("text")).map(row -> row.get("text").asString()))
                    .isNotEmpty().allMatch(PersonalContent.ERASED::equals);
            Instant createdAt = Instant.parse(owner.taskView(agent, task).get("created_at").asString());
            assertThat(body(owner.get("/api/v1/agents/{a}/tasks/{t}?as_of={at}", agent, task, createdAt.plusMillis(1).toString())
                    .exchange(), 200).at("/data/history").valueStream().filter(row -> row.has("text")).map(row -> row.get("text").asString()))
                    .as("the task as of its creation").allMatch(PersonalContent.ERASED::equals);
            assertThat(audit(owner, "task", task)).doesNotContain(secret).contains(PersonalContent.ERASED);
            JsonNode recorded = body(owner.get("/api/v1/audit/events?resource_type=owner&resource_id={o}", erased.get("owner_id")
                    .asString()).exchange(), 200).at("/data/events/0");
            assertThat(recorded.get("type").asString()).isEqualTo("OwnerContentErased");
            assertThat(recorded.get("actor").asString()).as("the owner's own key asked").isNotBlank();

            assertThat(other.taskView(otherAgent, otherTask).get("text").asString()).as("another owner's content").contains(kept);

            // the task's first event, its text erased in the export, is still proved in the log by a head signed after
            JsonNode created = exportLines(owner).stream().filter(line -> task.equals(line.get("resource_id").asString())
                    && "TaskCreated".equals(line.get("type").asString())).findFirst().orElseThrow();
            assertThat(created.at("/data/message/text").asString()).isEqualTo(PersonalContent.ERASED);
            service.getBean(AuditCheckpoints.class).checkpoint();
            JsonNode head = body(owner.get("/api/v1/audit/tree-heads?limit=1").exchange(), 200).at("/data/tree_heads/0");
            JsonNode proof = body(owner.get("/api/v1/audit/events/{i}/proof?tree_size={s}", created.get("global_index").asLong(),
                    head.get("tree_size").asLong()).exchange(), 200).get("data");
            out.reset();
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            assertThat(AuditCommand.run(new String[] {"prove", "--tree-head", write("head.json", head), "--event", write("event.json", created),
                    "--proof", write("proof.json", proof)}, print, print)).as(output()).isZero();

            // content sent afterwards is the owner's again, under a new key
            String later = owner.task(agent, "after the erasure");
            assertThat(owner.awaitTask(agent, later, "completed").get("text").asString()).contains("after the erasure");
        }

        assertThat(cli(AuditCommand::run, "verify")).as(output()).isZero();
        out.reset();
        assertThat(cli(ProjectionsCommand::run, "rebuild", "all")).as(output()).isZero();
        assertThat(output()).contains("channel_message").doesNotContain("DIFFERS");
        out.reset();
        assertThat(cli(OwnersCommand::run, "erase", "--owner", UUID.randomUUID().toString())).as(output()).isZero();
        assertThat(output()).contains("0 data key(s) destroyed, 0 file(s) deleted");

        String logged = logs.list.stream().map(event -> event.getFormattedMessage() + " " + event.getKeyValuePairs()
                + " " + (event.getThrowableProxy() == null ? "" : event.getThrowableProxy().getMessage())).collect(Collectors.joining("\n"));
        assertThat(logged).as("the service's logs").doesNotContain(secret).doesNotContain(kept);
    }

    /** The texts of a log page's rows, or of a stream's frames. */
    private static List<String> texts(WebTestClient.RequestHeadersSpec<?> page) {
        return body(page.exchange(), 200).at("/data/messages").valueStream().filter(row -> row.has("text"))
                .map(row -> row.get("text").asString()).toList();
    }

    private static List<String> texts(List<ServerSentEvent<String>> frames) {
        List<String> texts = new ArrayList<>();
        for (ServerSentEvent<String> frame : frames) {
            JsonNode data = JSON.readTree(frame.data());
            if (data.has("text") && !data.get("text").isNull() && !"done".equals(frame.event())) {
                texts.add(data.get("text").asString());
            }
        }
        return texts;
    }

    /** The names of the attachments of the task's messages. */
    private static List<String> attachmentNames(PlatformClient owner, String agent, String task) {
        return body(owner.get("/api/v1/agents/{a}/tasks/{t}/messages", agent, task).exchange(), 200).at("/data/messages").valueStream()
                .filter(row -> row.has("attachments")).flatMap(row -> row.get("attachments").valueStream())
                .map(attachment -> attachment.get("name").asString()).toList();
    }

    /** Uploads a small file named {@code filename} through the presigned URL; answers its id. */
    private static String uploaded(ConfigurableApplicationContext service, PlatformClient owner, String filename) {
        byte[] bytes = "the file's bytes".getBytes(StandardCharsets.UTF_8);
        JsonNode ticket = body(owner.post("/api/v1/files/presign-upload").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("contentType", "text/plain", "contentLengthBytes", bytes.length, "filename", filename)).exchange(), 201)
                .get("data");
        body(StandaloneService.http(service).put().uri(URI.create(ticket.get("upload_url").asString())).contentType(MediaType.TEXT_PLAIN)
                .bodyValue(bytes).exchange(), 200);
        return ticket.get("file_id").asString();
    }

    /** Every line of the owner's audit export. */
    private static List<JsonNode> exportLines(PlatformClient owner) {
        return owner.get("/api/v1/audit/export").exchange().expectStatus().isOk().expectBody(String.class).returnResult()
                .getResponseBody().lines().map(JSON::readTree).toList();
    }

    private String write(String name, JsonNode json) throws IOException {
        Path file = dataDir.resolve("proof-" + name);
        Files.writeString(file, JSON.writeValueAsString(json), StandardCharsets.UTF_8);
        return file.toString();
    }

    /** The owner's audit history of a resource, as text. */
    private static String audit(PlatformClient owner, String type, String id) {
        return body(owner.get("/api/v1/audit/events?resource_type={t}&resource_id={i}", type, id).exchange(), 200).toString();
    }

    /**
     * The tables holding {@code text} anywhere in a row, binary columns read as text too (a plain-SQL dump of every table:
     * the embedded PostgreSQL 17 has no {@code pg_dump} beside it, and a dump writes binary columns in hex, where a grep
     * would not see a plaintext anyway).
     */
    private static List<String> tablesHolding(JdbcTemplate jdbc, String text) {
        List<String> holding = new ArrayList<>();
        for (String table : jdbc.queryForList("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                + " AND table_type = 'BASE TABLE'", String.class)) {
            List<String> binary = jdbc.queryForList("SELECT column_name FROM information_schema.columns WHERE table_schema = 'public'"
                    + " AND table_name = ? AND data_type = 'bytea'", String.class, table);
            String decoded = binary.stream().map(column -> " || coalesce(encode(t." + column + ", 'escape'), '')")
                    .collect(Collectors.joining());
            Integer rows = jdbc.queryForObject("SELECT count(*) FROM " + table + " t WHERE strpos(t::text" + decoded + ", ?) > 0",
                    Integer.class, text);
            if (rows != null && rows > 0) {
                holding.add(table);
            }
        }
        return holding;
    }

    /** An owner of its own, with a user who logs in. */
    private static PlatformClient secondOwner(ConfigurableApplicationContext service) {
        UserAdmin users = new UserAdmin(service.getBean(JdbcTemplate.class), IdentityConfiguration.passwords(), Clock.systemUTC());
        OwnerId owner = users.createOwner("another");
        users.create("another@example.test", "another-password", owner);
        WebTestClient http = StandaloneService.http(service);
        JsonNode login = body(http.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("email", "another@example.test", "password", "another-password")).exchange(), 200);
        return new PlatformClient(http, login.at("/data/access_token").asString());
    }

    @FunctionalInterface
    private interface Cli {

        int run(String[] args, PrintStream out, PrintStream err);
    }

    private int cli(Cli command, String... args) {
        String[] withSettings = java.util.Arrays.copyOf(args, args.length + 1);
        withSettings[args.length] = "--agent-platform.data-dir=" + dataDir;
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        return command.run(withSettings, print, print);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    private ConfigurableApplicationContext start() {
        return StandaloneService.start(dataDir, "--agent-platform.embedded-postgres.durable=false",
                "--agent-platform.webhooks.allowed-networks=127.0.0.1/32");
    }
}

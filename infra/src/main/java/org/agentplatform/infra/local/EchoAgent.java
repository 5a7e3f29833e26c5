package org.agentplatform.infra.local;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.agentplatform.command.turn.TurnOutcome;
import org.agentplatform.infra.adapter.model.ModelBackends.ChatMessage;
import org.agentplatform.kernel.task.Attachment;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.query.channel.ChannelChunks;

/**
 * The local runtime's deterministic agent. It answers {@code "echo: <message>"}, streamed as deltas, and
 * follows {@code /echo} directive lines in the message so every path of a task can be exercised:
 * <pre>
 * /echo then=input deltas=5 think=2 progress=1 take_ms=2000
 * </pre>
 * {@code then}: {@code complete} (default), {@code input}, {@code auth}, {@code fail} (the agent reports a
 * failure in band), {@code reject}, {@code unavailable} (its model service is down), {@code error} (it
 * crashes), {@code hang} (never answers). {@code deltas}: how many {@code agent_reply_delta} chunks the
 * reply streams as (default one per word, at most 64); {@code think}/{@code progress}: that many
 * {@code agent_thought_chunk}/{@code agent_message_chunk} chunks first; {@code take_ms}: how long the
 * turn takes, spread evenly. A bare {@code history} makes the reply recount the earlier turns of the task or
 * conversation (how many, and the first words of each message), to show the agent answers with the whole
 * conversation as context. Unknown keys are ignored; numbers are clamped.
 */
final class EchoAgent {

    static final String DIRECTIVE = "/echo";
    private static final int DEFAULT_MAX_DELTAS = 64;
    private static final int MAX_CHUNKS = 10_000;
    private static final long MAX_TAKE_MS = 600_000;

    /** One streamed chunk. */
    record Chunk(String kind, String text) {
    }

    /**
     * What the agent does in a turn: stream {@code chunks}, pausing {@code stepDelayMs} before each and
     * before the outcome, then answer {@code outcome} (null: never answer).
     */
    record Plan(List<Chunk> chunks, long stepDelayMs, TurnOutcome outcome) {
    }

    private EchoAgent() {
    }

    /**
     * @param earlier the earlier turns as chat messages, oldest first (the caller's, then the agent's answer); read only
     *                when the message asks for its {@code history}
     */
    static Plan plan(TaskMessage message, Supplier<List<ChatMessage>> earlier) {
        Map<String, String> directives = new HashMap<>();
        StringBuilder text = new StringBuilder();
        for (String line : message.text().split("\n", -1)) {
            if (isDirective(line)) {
                for (String pair : line.strip().substring(DIRECTIVE.length()).strip().split("\\s+")) {
                    int equals = pair.indexOf('=');
                    if (equals > 0) {
                        directives.put(pair.substring(0, equals).toLowerCase(Locale.ROOT), pair.substring(equals + 1));
                    } else if (!pair.isEmpty()) {
                        directives.put(pair.toLowerCase(Locale.ROOT), "");
                    }
                }
            } else {
                text.append(text.isEmpty() ? "" : "\n").append(line);
            }
        }
        String said = text.toString().strip() + attachmentNote(message.attachments())
                + (directives.containsKey("history") ? historyNote(earlier.get()) : "");
        String then = directives.getOrDefault("then", "complete").toLowerCase(Locale.ROOT);
        String reply = switch (then) {
            case "input" -> "echo needs more input: " + said;
            case "auth" -> "echo needs authorization: " + said;
            case "fail" -> "echo failed: " + said;
            default -> "echo: " + said;
        };
        TurnOutcome outcome = switch (then) {
            case "input" -> new TurnOutcome.NeedsInput(reply);
            case "auth" -> new TurnOutcome.NeedsAuth(reply);
            case "fail" -> new TurnOutcome.AgentFailed(reply, "The echo agent reported a failure, as the message asked");
            case "reject" -> new TurnOutcome.Rejected("The echo agent rejected the task, as the message asked");
            case "unavailable" -> new TurnOutcome.Unavailable("agent_service_unavailable",
                    "The echo agent's model service is unreachable, as the message asked");
            case "error" -> new TurnOutcome.Unavailable("internal_error", "The echo agent crashed, as the message asked");
            case "hang" -> null;
            default -> new TurnOutcome.Replied(reply);
        };
        List<Chunk> chunks = new ArrayList<>();
        int thoughts = number(directives, "think", 0, MAX_CHUNKS);
        for (int index = 1; index <= thoughts; index++) {
            chunks.add(new Chunk(ChannelChunks.AGENT_THOUGHT_CHUNK, "thinking (" + index + "/" + thoughts + ")"));
        }
        int notes = number(directives, "progress", 0, MAX_CHUNKS);
        for (int index = 1; index <= notes; index++) {
            chunks.add(new Chunk(ChannelChunks.AGENT_MESSAGE_CHUNK, "working (" + index + "/" + notes + ")"));
        }
        if (!"reject".equals(then)) {
            int words = reply.split("\\s+").length;
            int deltas = number(directives, "deltas", Math.min(words, DEFAULT_MAX_DELTAS), MAX_CHUNKS);
            split(reply, Math.max(1, deltas)).forEach(piece -> chunks.add(new Chunk(ChannelChunks.AGENT_REPLY_DELTA, piece)));
        }
        long take = number(directives, "take_ms", 0, MAX_TAKE_MS);
        return new Plan(List.copyOf(chunks), take / (chunks.size() + 1), outcome);
    }

    /** {@code text} in {@code count} contiguous pieces of about equal length (fewer when it is shorter). */
    static List<String> split(String text, int count) {
        int[] codePoints = text.codePoints().toArray();
        int pieces = Math.max(1, Math.min(count, codePoints.length));
        List<String> result = new ArrayList<>();
        for (int piece = 0; piece < pieces; piece++) {
            int start = (int) ((long) codePoints.length * piece / pieces);
            int end = (int) ((long) codePoints.length * (piece + 1) / pieces);
            result.add(new String(codePoints, start, end - start));
        }
        return result;
    }

    /** {@code " (2 earlier turns: "first words", "of each")"}: the earlier messages of the caller, by their first three words. */
    private static String historyNote(List<ChatMessage> earlier) {
        List<String> openings = earlier.stream()
                .filter(message -> "user".equals(message.role()))
                .map(message -> {
                    String[] words = withoutDirectives(message.content()).strip().split("\\s+");
                    return "\"" + String.join(" ", Arrays.asList(words).subList(0, Math.min(3, words.length))) + "\"";
                })
                .toList();
        String turns = openings.size() + " earlier turn" + (openings.size() == 1 ? "" : "s");
        return openings.isEmpty() ? " (" + turns + ")" : " (" + turns + ": " + String.join(", ", openings) + ")";
    }

    private static boolean isDirective(String line) {
        String stripped = line.strip();
        return stripped.equals(DIRECTIVE) || stripped.startsWith(DIRECTIVE + " ");
    }

    private static String withoutDirectives(String text) {
        return String.join("\n", text.lines().filter(line -> !isDirective(line)).toList());
    }

    private static String attachmentNote(List<Attachment> attachments) {
        if (attachments.isEmpty()) {
            return "";
        }
        List<String> names = attachments.stream()
                .map(attachment -> (attachment.name() == null ? attachment.fileId() : attachment.name()) + " (" + attachment.sizeBytes()
                        + " bytes)")
                .toList();
        return " [attached: " + String.join(", ", names) + "]";
    }

    private static int number(Map<String, String> directives, String key, int fallback, long max) {
        String value = directives.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return (int) Math.max(0, Math.min(max, Long.parseLong(value)));
        } catch (NumberFormatException notANumber) {
            return fallback;
        }
    }
}

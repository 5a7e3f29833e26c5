package org.agentplatform.infra.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.agentplatform.infra.eventstore.ProcessorDeadLetters;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code java -jar agent-platform.jar deadletters list|retry [--processor <name>] [--wait <seconds>]}
 * <p>
 * {@code list} shows the events the processors parked (per processor and aggregate: how many, the first event's
 * type, when, and why). {@code retry} asks the running service to handle them again and waits for its answer;
 * a sequence that succeeds leaves the queue, one that fails again stays. Exit codes: 0 nothing left parked,
 * 1 some still parked, 2 usage, 3 no answer in time (no service running, or still busy).
 */
public final class DeadLettersCommand {

    public static final String NAME = "deadletters";
    static final String USAGE = """
            usage: java -jar agent-platform.jar deadletters list  [--processor <name>] [--<setting>=<value> ...]
                   java -jar agent-platform.jar deadletters retry [--processor <name>] [--wait <seconds>] [--<setting>=<value> ...]
              Configuration as for the service (AGENT_PLATFORM_DATA_DIR, AGENT_PLATFORM_DATABASE_URL, ...).""";
    private static final Duration POLL = Duration.ofMillis(250);

    private DeadLettersCommand() {
    }

    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        Optional<Request> request = Request.parse(args);
        if (request.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        try (CliDatabase database = CliDatabase.open(request.get().settings())) {
            return request.get().retry()
                    ? retry(database.jdbc(), request.get(), database.startedForThisCommand(), out)
                    : list(database.jdbc(), request.get().processor(), out);
        } catch (IOException | RuntimeException failure) {
            err.println("deadletters failed: " + failure.getMessage());
            return 1;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return 3;
        }
    }

    private static int list(JdbcTemplate jdbc, String processor, PrintStream out) {
        List<Map<String, Object>> sequences = jdbc.queryForList("""
                SELECT processing_group, sequence_identifier, count(*) AS events,
                       (array_agg(payload_type ORDER BY sequence_index))[1] AS first_type,
                       min(enqueued_at) AS enqueued_at,
                       (array_agg(cause_type ORDER BY sequence_index))[1] AS cause_type,
                       (array_agg(cause_message ORDER BY sequence_index))[1] AS cause_message
                FROM dead_letter_entry
                WHERE ?::text IS NULL OR processing_group = ?
                GROUP BY processing_group, sequence_identifier
                ORDER BY processing_group, min(enqueued_at)""", processor, processor);
        long events = 0;
        for (Map<String, Object> sequence : sequences) {
            events += ((Number) sequence.get("events")).longValue();
            out.printf("%s  %s  %s event(s) since %s, first %s%n    %s: %s%n", sequence.get("processing_group"),
                    sequence.get("sequence_identifier"), sequence.get("events"), sequence.get("enqueued_at"),
                    simpleName((String) sequence.get("first_type")), sequence.get("cause_type"), sequence.get("cause_message"));
        }
        out.println(sequences.isEmpty() ? "no dead letters" : events + " event(s) parked in " + sequences.size() + " sequence(s)");
        return sequences.isEmpty() ? 0 : 1;
    }

    private static int retry(JdbcTemplate jdbc, Request request, boolean noService, PrintStream out) throws InterruptedException {
        long id = ProcessorDeadLetters.queueRetry(jdbc, request.processor()).id();
        if (noService) {
            out.println("retry " + id + " queued: no service is running; it applies the retry when it starts");
            return 3;
        }
        long deadline = System.nanoTime() + request.patience().toNanos();
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> done = jdbc.queryForList(
                    "SELECT retried, still_parked FROM dead_letter_retry WHERE id = ? AND finished_at IS NOT NULL", id);
            if (!done.isEmpty()) {
                Number parked = (Number) done.getFirst().get("still_parked");
                out.println("retried: " + done.getFirst().get("retried") + " sequence(s) applied, " + parked + " event(s) still parked");
                return parked.longValue() == 0 ? 0 : 1;
            }
            Thread.sleep(POLL.toMillis());
        }
        out.println("retry " + id + " is queued but the service has not answered within " + request.patience().toSeconds() + " s");
        return 3;
    }

    private static String simpleName(String type) {
        return type == null ? "?" : type.substring(type.lastIndexOf('.') + 1).replace('$', '.');
    }

    /** The parsed command line; {@code settings} are {@code --name=value} configuration overrides. */
    record Request(boolean retry, String processor, Duration patience, List<String> settings) {

        static Optional<Request> parse(String[] args) {
            if (args.length == 0 || !(args[0].equals("list") || args[0].equals("retry"))) {
                return Optional.empty();
            }
            String processor = null;
            Duration wait = Duration.ofSeconds(60);
            List<String> settings = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                if (args[i].startsWith("--") && args[i].contains("=")) {
                    settings.add(args[i]);
                    continue;
                }
                if (i + 1 >= args.length) {
                    return Optional.empty();
                }
                String value = args[++i];
                switch (args[i - 1]) {
                    case "--processor" -> processor = value;
                    case "--wait" -> {
                        try {
                            wait = Duration.ofSeconds(Long.parseLong(value));
                        } catch (NumberFormatException notSeconds) {
                            return Optional.empty();
                        }
                    }
                    default -> {
                        return Optional.empty();
                    }
                }
            }
            return Optional.of(new Request(args[0].equals("retry"), processor, wait, List.copyOf(settings)));
        }
    }
}

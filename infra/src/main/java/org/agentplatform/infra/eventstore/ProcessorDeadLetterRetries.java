package org.agentplatform.infra.eventstore;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.agentplatform.query.feed.ChangeFeed;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.deadletter.SequencedDeadLetterProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import reactor.core.Disposable;

/**
 * Applies the retries the command line asks for ({@code deadletters retry} writes a row of
 * {@code dead_letter_retry} and notifies {@link ProcessorDeadLetters#RETRY_CHANNEL}): each parked sequence of the asked
 * processors is handled again, in order; those that succeed leave the queue, the others stay parked. The outcome
 * is written back to the request, where the command line reads it. Requests left while no service ran are
 * applied at start.
 */
final class ProcessorDeadLetterRetries implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ProcessorDeadLetterRetries.class);

    private final ChangeFeed feed;
    private final JdbcTemplate jdbc;
    private final EventProcessingConfiguration processing;
    private final Set<String> groups;
    private ExecutorService worker;
    private Disposable subscription;

    ProcessorDeadLetterRetries(ChangeFeed feed, JdbcTemplate jdbc, EventProcessingConfiguration processing, Set<String> groups) {
        this.feed = feed;
        this.jdbc = jdbc;
        this.processing = processing;
        this.groups = groups;
    }

    @Override
    public void start() {
        worker = Executors.newSingleThreadExecutor(runnable -> Thread.ofPlatform().name("dead-letter-retry").daemon().unstarted(runnable));
        subscription = feed.on(ProcessorDeadLetters.RETRY_CHANNEL, ProcessorDeadLetters.RETRY_KEY).subscribe(change -> applyPendingSoon());
        applyPendingSoon();
    }

    @Override
    public void stop() {
        subscription.dispose();
        worker.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return worker != null && !worker.isShutdown();
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100; // after the processors have started, stopped before them
    }

    private void applyPendingSoon() {
        try {
            worker.execute(this::applyPending);
        } catch (RejectedExecutionException stopping) {
            // shutting down: the request stays pending for the next start
        }
    }

    private void applyPending() {
        try {
            List<Map<String, Object>> pending = jdbc.queryForList(
                    "SELECT id, processing_group FROM dead_letter_retry WHERE finished_at IS NULL ORDER BY id");
            for (Map<String, Object> request : pending) {
                String only = (String) request.get("processing_group");
                int retried = 0;
                for (String group : groups) {
                    if (only == null || only.equals(group)) {
                        retried += retry(group);
                    }
                }
                Long parked = jdbc.queryForObject(only == null
                        ? "SELECT count(*) FROM dead_letter_entry"
                        : "SELECT count(*) FROM dead_letter_entry WHERE processing_group = ?", Long.class,
                        only == null ? new Object[0] : new Object[] {only});
                jdbc.update("UPDATE dead_letter_retry SET finished_at = now(), retried = ?, still_parked = ? WHERE id = ? AND finished_at IS NULL",
                        retried, parked, request.get("id"));
                log.atInfo().addKeyValue("processor", only == null ? "*" : only).addKeyValue("applied_sequences", retried)
                        .addKeyValue("still_parked", parked).log("dead letters retried");
            }
        } catch (RuntimeException failure) {
            log.atWarn().setCause(failure).log("dead-letter retry failed; it stays pending for the next notification or start");
        }
    }

    /** Handles each parked sequence of {@code group} once; answers how many left the queue. */
    private int retry(String group) {
        SequencedDeadLetterProcessor<EventMessage<?>> letters = processing.sequencedDeadLetterProcessor(group).orElse(null);
        if (letters == null) {
            return 0;
        }
        Set<String> attempted = new HashSet<>();
        int applied = 0;
        while (true) {
            String[] picked = new String[1];
            boolean succeeded;
            try {
                succeeded = letters.process(letter -> {
                    String first = letter.message().getIdentifier();
                    if (picked[0] != null || attempted.contains(first)) {
                        return false;
                    }
                    picked[0] = first;
                    return true;
                });
            } catch (RuntimeException stillFailing) {
                succeeded = false; // the sequence stays parked; its transaction was rolled back
            }
            if (picked[0] == null) {
                return applied;
            }
            attempted.add(picked[0]);
            if (succeeded) {
                applied++;
            }
        }
    }
}

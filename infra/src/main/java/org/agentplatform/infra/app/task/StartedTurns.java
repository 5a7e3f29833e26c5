package org.agentplatform.infra.app.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiPredicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.agentplatform.command.conversation.ConversationDispatcher;
import org.agentplatform.command.task.TaskDispatcher;
import org.agentplatform.command.turn.AgentRuntime;
import org.agentplatform.command.turn.TurnStart;
import org.agentplatform.infra.eventstore.StoredTokens;
import org.agentplatform.kernel.conversation.ConversationEvent.ConversationClosed;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnCanceled;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnEnded;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnStarted;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.task.TaskEvent.TaskContinued;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskEvent.TaskTurnBegan;
import org.agentplatform.kernel.task.TaskEvent;
import org.agentplatform.kernel.task.TaskId;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Hands the runtime again the started turns whose hand-off a crash lost, reading the event store's truth, not a read model
 * that may lag or (as once) lose an update: the turn starts a dispatcher has passed ({@code task-dispatch}: task starts and
 * continues; {@code conversation-dispatch}: turn starts) are read in global order from a checked position kept in
 * {@code turn_recovery}; those the runtime has no record of ({@link AgentRuntime#unknown}) and that still run (no later
 * event of their task or conversation ends them) go through their dispatcher's hand-off again. The check and the hand-off
 * run as one piece in the dispatcher's lane for that task or conversation ({@code inOrder}): a stop handed on before it has
 * run (its ending event is then in the history the check reads), one handed on after it waits for the hand-off. The
 * position moves past the starts settled so, one after the other; a start younger than {@link #GRACE} (its hand-off may
 * be under way), one whose hand-off failed again or still waits in its lane, and one the dispatcher has not passed hold
 * it, and are looked at again.
 */
final class StartedTurns {

    private static final Logger log = LoggerFactory.getLogger(StartedTurns.class);
    static final Duration GRACE = Duration.ofSeconds(2);
    private static final int BATCH = 500;
    /** At most this many batches a sweep, so a first check of a long history is spread over sweeps. */
    private static final int BATCHES_PER_SWEEP = 20;
    /**
     * How long a sweep waits in all for its hand-offs in the dispatchers' lanes; one still waiting is looked at again at the
     * next sweep. Short: the same sweep renews this node's liveness afterwards ({@code AgentRuntime.recoverTurns}), which
     * other nodes read to take over the turns of a silent one.
     */
    private static final Duration LANE_WAIT = Duration.ofSeconds(2);

    private final JdbcTemplate jdbc;
    private final EventStore events;
    private final AgentRuntime runtime;
    private final Clock clock;
    private final List<Kind> kinds;

    /** One dispatcher's starts: the payload types that start a turn, what ends one, the hand-off, and its lanes. */
    private record Kind(String dispatcher, List<String> starts, BiPredicate<Object, Object> endsTurn, Recovery handOff, Lane lane) {
    }

    /** Runs a piece in the dispatcher's lane for a task or conversation, after what was handed on there before it. */
    @FunctionalInterface
    private interface Lane {
        CompletableFuture<Outcome> inOrder(UUID channel, Supplier<Outcome> work);
    }

    @FunctionalInterface
    private interface Recovery {
        void handOff(Object start, long globalIndex);
    }

    /** One stored start: where it is, whose, when. */
    private record Start(long globalIndex, UUID channel, long sequence, Instant at) {
    }

    StartedTurns(JdbcTemplate jdbc, EventStore events, AgentRuntime runtime, TaskDispatcher tasks, ConversationDispatcher conversations,
            Clock clock) {
        this.jdbc = jdbc;
        this.events = events;
        this.runtime = runtime;
        this.clock = clock;
        this.kinds = List.of(
                new Kind(TaskDispatcher.GROUP, startTypes().get(0),
                        // every later event of a task ends the turn or starts the next, but the one saying it began
                        (start, later) -> later instanceof TaskEvent && !(later instanceof TaskTurnBegan),
                        (start, globalIndex) -> {
                            switch (start) {
                                case TaskStarted started -> tasks.handOff(started.task(), started.turn(), globalIndex, started.message(),
                                        started.interactive());
                                case TaskContinued continued -> tasks.handOff(continued.task(), continued.turn(), globalIndex,
                                        continued.message(), false);
                                default -> throw new IllegalArgumentException("Not a task's turn start: " + start);
                            }
                        },
                        (channel, work) -> tasks.inOrder(new TaskId(channel), work)),
                new Kind(ConversationDispatcher.GROUP, startTypes().get(1),
                        (start, later) -> ends((TurnStarted) start, later),
                        (start, globalIndex) -> {
                            TurnStarted started = (TurnStarted) start;
                            conversations.handOff(started.conversation(), started.turn(), globalIndex, started.message());
                        },
                        (channel, work) -> conversations.inOrder(new ConversationId(channel), work)));
    }

    private static boolean ends(TurnStarted start, Object later) {
        return switch (later) {
            case TurnEnded ended -> ended.turn() == start.turn();
            case TurnCanceled canceled -> canceled.turn() == start.turn();
            case TurnStarted next -> next.turn() > start.turn();
            case ConversationClosed closed -> true;
            default -> false;
        };
    }

    /** Checks what the dispatchers passed since the last sweep; answers how many turns it handed to the runtime again. */
    int recover() {
        long waitUntil = System.nanoTime() + LANE_WAIT.toNanos();
        int handed = 0;
        for (Kind kind : kinds) {
            handed += recover(kind, waitUntil);
        }
        return handed;
    }

    /**
     * Checks the starts after the kind's position up to where its dispatcher has got: each one the dispatcher passed, older
     * than the grace and unknown to the runtime is handed over again if it still runs. The position moves past the starts
     * settled one after the other, and never past one the dispatcher has not passed (a gap: an event still to commit).
     */
    private int recover(Kind kind, long waitUntil) {
        StoredTokens.Progress dispatched = StoredTokens.progress(jdbc, kind.dispatcher());
        long gapFree = dispatched.gaps().stream().mapToLong(gap -> gap - 1).min().orElse(Long.MAX_VALUE);
        long mark = mark(kind.dispatcher());
        long scanned = mark;
        boolean contiguous = true;
        Instant settledBefore = clock.instant().minus(GRACE);
        int handed = 0;
        for (int batch = 0; batch < BATCHES_PER_SWEEP && scanned < dispatched.position(); batch++) {
            List<Start> starts = jdbc.query(scan(kind.starts()),
                    (row, index) -> new Start(row.getLong("global_index"), UUID.fromString(row.getString("aggregate_identifier")),
                            row.getLong("sequence_number"), Instant.parse(row.getString("time_stamp"))),
                    scanned, dispatched.position(), BATCH);
            Set<TurnStart> unknown = starts.isEmpty() ? Set.of()
                    : runtime.unknown(starts.stream().map(start -> new TurnStart(start.channel(), start.globalIndex())).toList());
            List<CompletableFuture<Outcome>> outcomes = new ArrayList<>(starts.size());
            for (Start start : starts) {
                if (!dispatched.passed(start.globalIndex())) {
                    outcomes.add(CompletableFuture.completedFuture(Outcome.NOT_YET));
                } else if (!unknown.contains(new TurnStart(start.channel(), start.globalIndex()))) {
                    outcomes.add(CompletableFuture.completedFuture(Outcome.KNOWN));
                } else if (start.at().isBefore(settledBefore)) {
                    outcomes.add(kind.lane().inOrder(start.channel(), () -> handBackIfRunning(kind, start)));
                } else {
                    outcomes.add(CompletableFuture.completedFuture(Outcome.NOT_YET));
                }
            }
            for (int index = 0; index < starts.size(); index++) {
                Start start = starts.get(index);
                Outcome outcome = await(outcomes.get(index), waitUntil, start);
                handed += outcome == Outcome.HANDED ? 1 : 0;
                contiguous &= outcome != Outcome.NOT_YET;
                if (contiguous) {
                    mark = start.globalIndex();
                }
            }
            scanned = starts.size() < BATCH ? dispatched.position() : starts.getLast().globalIndex();
            if (contiguous) {
                mark = scanned;
            }
        }
        saveMark(kind.dispatcher(), Math.min(mark, gapFree));
        return handed;
    }

    /**
     * The query of the starts of {@code types} in (?, ?], at most ? of them: the types as literals, so that the partial
     * index of turn starts (migration V20) serves it.
     */
    static String scan(List<String> types) {
        return "SELECT global_index, aggregate_identifier, sequence_number, time_stamp FROM domain_event_entry"
                + " WHERE global_index > ? AND global_index <= ? AND payload_type IN ("
                + types.stream().map(type -> "'" + type + "'").collect(Collectors.joining(", ")) + ") ORDER BY global_index LIMIT ?";
    }

    /** The payload types that start a turn, per dispatcher. */
    static List<List<String>> startTypes() {
        return List.of(List.of(TaskStarted.class.getName(), TaskContinued.class.getName()), List.of(TurnStarted.class.getName()));
    }

    /** The outcome of a start's piece in its lane; one not there by {@code waitUntil} (a busy pool) is looked at again. */
    private static Outcome await(CompletableFuture<Outcome> outcome, long waitUntil, Start start) {
        try {
            return outcome.get(Math.max(0, waitUntil - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException stillWaiting) {
            return Outcome.NOT_YET;
        } catch (ExecutionException failure) {
            log.atWarn().addKeyValue("channel_id", start.channel().toString()).setCause(failure.getCause())
                    .log("a lost turn could not be looked at in its lane; retrying at the next sweep");
            return Outcome.NOT_YET;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return Outcome.NOT_YET;
        }
    }

    /** What became of a start. */
    private enum Outcome {
        /** The runtime has it: nothing to hand. */
        KNOWN,
        /** Handed to the runtime again. */
        HANDED,
        /** A later event ended the turn: nothing to hand. */
        OVER,
        /** Not passed by its dispatcher, too young, its hand-off failed or still waits in its lane: looked at again. */
        NOT_YET
    }

    /** Hands the turn again when its start is still the last word about it (run in the start's lane). */
    private Outcome handBackIfRunning(Kind kind, Start start) {
        try {
            List<? extends DomainEventMessage<?>> history = events.readEvents(start.channel().toString(), start.sequence()).asStream().toList();
            if (history.isEmpty() || history.getFirst().getSequenceNumber() != start.sequence()) {
                return Outcome.OVER;
            }
            Object started = history.getFirst().getPayload();
            for (DomainEventMessage<?> later : history.subList(1, history.size())) {
                if (kind.endsTurn().test(started, later.getPayload())) {
                    return Outcome.OVER;
                }
            }
            log.atWarn().addKeyValue("channel_id", start.channel().toString()).addKeyValue("global_index", start.globalIndex())
                    .log("a started turn the runtime never received (its hand-off was lost); handing it over again");
            kind.handOff().handOff(started, start.globalIndex());
            return Outcome.HANDED;
        } catch (RuntimeException failure) {
            log.atWarn().addKeyValue("channel_id", start.channel().toString()).setCause(failure)
                    .log("a lost turn could not be handed over again; retrying at the next sweep");
            return Outcome.NOT_YET;
        }
    }

    private long mark(String dispatcher) {
        List<Long> stored = jdbc.queryForList("SELECT position FROM turn_recovery WHERE dispatcher = ?", Long.class, dispatcher);
        return stored.isEmpty() ? 0 : stored.getFirst();
    }

    private void saveMark(String dispatcher, long position) {
        jdbc.update("INSERT INTO turn_recovery (dispatcher, position) VALUES (?, ?) ON CONFLICT (dispatcher)"
                + " DO UPDATE SET position = GREATEST(turn_recovery.position, EXCLUDED.position)", dispatcher, position);
    }
}

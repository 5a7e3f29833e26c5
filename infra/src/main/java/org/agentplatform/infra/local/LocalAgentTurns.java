package org.agentplatform.infra.local;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.agentplatform.command.turn.AgentTurn;
import org.agentplatform.command.turn.TurnOutcome.AgentFailed;
import org.agentplatform.command.turn.TurnOutcome.NeedsAuth;
import org.agentplatform.command.turn.TurnOutcome.NeedsInput;
import org.agentplatform.command.turn.TurnOutcome.Rejected;
import org.agentplatform.command.turn.TurnOutcome.Replied;
import org.agentplatform.command.turn.TurnOutcome.Unavailable;
import org.agentplatform.command.turn.TurnOutcome;
import org.agentplatform.command.turn.TurnReports;
import org.agentplatform.command.turn.TurnStart;
import org.agentplatform.infra.adapter.model.ModelBackends.ChatMessage;
import org.agentplatform.infra.adapter.model.ModelBackends;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TurnBegan;
import org.agentplatform.query.AfterLock;
import org.agentplatform.query.channel.ChannelChunks.Written;
import org.agentplatform.query.channel.ChannelChunks.WrittenAlong;
import org.agentplatform.query.channel.ChannelChunks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.ColumnMapRowMapper;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/**
 * The local runtime's side of tasks and conversations: runs each turn with the agent's model (the scriptable
 * {@link EchoAgent}, or the OpenAI-compatible endpoint, streamed), writes its chunks, and reports its
 * outcome. A turn is recorded before it runs and its outcome before it is reported, so after a crash a
 * turn runs again (chunks already written are not repeated) and an outcome is reported again.
 *
 * <p>A turn handed in waits in PostgreSQL ({@code local_turn}, state {@code ready}) until a node's claimer takes it for
 * its workers, in a fair order any node follows: interactive turns (a synchronous invoke, a conversation's message) before
 * the others; within each, the owner whose share has been served least (stride scheduling over {@code local_fair_share}:
 * each claimed turn moves its owner's pass on by 1/weight, and an owner with nothing waiting rejoins at the pass being
 * served, {@code local_fair_clock}), so one owner's flood takes its share and never the others'; within an owner, the turns
 * in the order they were started. A node claims only as many as its workers are about to take ({@code maxQueued}); its
 * workers begin the interactive ones among them first.
 * Each share keeps a cursor below all its waiting turns ({@code claimed_through}): a claim reads from there, not over the
 * turns claimed before it, so its cost does not grow with the backlog drained.
 */
final class LocalAgentTurns {

    private static final Logger log = LoggerFactory.getLogger(LocalAgentTurns.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String AGENT_OFFLINE = "agent_offline";
    private static final long MARK_DELAY_MS = 50;
    /** How often an idle claimer looks for turns handed in on other nodes (its own node's wake it at once). */
    private static final long CLAIM_POLL_MS = 200;
    /** How long a claimer whose statement failed waits before it tries again. */
    private static final long CLAIM_BACKOFF_MS = 1_000;
    /** What a claim answers when the share it picked gave nothing, but another share may: the claimer looks again at once. */
    private static final int LOOK_AGAIN = -1;
    /** How many times in a row the claimer looks again at once before it waits. */
    private static final int MAX_LOOKS = 4;
    /** The turns claimed by one statement at most. */
    private static final int CLAIM_BATCH = 64;
    /** The class of the shares' advisory locks (their two-key form). */
    private static final int FAIR_SHARE_LOCKS = 0x46414952;
    static final int INTERACTIVE = 0;
    static final int BATCH = 1;
    /** The turn's instance and agent as the runtime has them (a row of nulls when it has neither); instance, then agent. */
    private static final String PLACEMENT = " i.state, i.runtime_epoch, a.model, a.instructions FROM (VALUES (1)) AS one (x)"
            + " LEFT JOIN local_instance i ON i.instance_id = ?"
            + " LEFT JOIN local_agent a ON a.instance_id = i.instance_id AND a.agent_id = ?";
    /**
     * A turn's claim instant, in SQL: PostgreSQL's clock as the statement that claims it runs (one clock for every node, read
     * once per statement, after its snapshot, before its commit: the turns of one claim share it), moved by how far this
     * node's {@link Clock} is set from the system's (the parameter, in microseconds: zero but under a test's clock). A claim
     * that saw another's commit is therefore dated after it, across nodes. An instant the node read before its statement was
     * not: the node can stall between the two, and its claim then be dated before a claim it saw committed (a claim that
     * found the other owner served took the flood's next turn, dated before the other owner's).
     */
    private static final String CLAIM_INSTANT = "clock_timestamp() + ?::bigint * interval '1 microsecond'";
    /**
     * The lock that orders the recording of a share's turns against its claims (the two-key form: apart from the channels'
     * one-key locks): shared by the recordings, which then run side by side, exclusive for a claim. An advisory lock, so
     * that recording a turn writes nothing to its share unless the share must learn of it. This is a claim's, exclusive
     * (the recordings take theirs with {@link #SHARES_LOCK}); it also has the claim's statement, next in its transaction,
     * run on its generic plan: PostgreSQL would otherwise plan it at every execution on a connection where its first five
     * custom plans looked cheaper than the generic one (0.76 ms of planning for 0.28 of execution per claim in one run of the
     * bench, none in the run before it, with the same build), and its plan does not depend on its values.
     */
    private static final String SHARE_LOCK = "SELECT pg_advisory_xact_lock(" + FAIR_SHARE_LOCKS + ", hashtext(?::text || ':' || ?::text)),"
            + " set_config('plan_cache_mode', 'force_generic_plan', true)";
    /**
     * The locks of the shares of turns recorded together (owners and priorities, as two arrays), shared, in one order: the
     * recordings run side by side, a claim ({@link #SHARE_LOCK}, exclusive) waits for them or they for it.
     */
    private static final String SHARES_LOCK = "SELECT pg_advisory_xact_lock_shared(" + FAIR_SHARE_LOCKS
            + ", hashtext(s.owner_id::text || ':' || s.priority::text))"
            + " FROM (SELECT DISTINCT owner_id, priority FROM unnest(?::uuid[], ?::int[]) AS t (owner_id, priority) ORDER BY 1, 2) s";
    /**
     * Turns recorded (a dispatcher's batch, or one): claimed by this node at once when no share has turns waiting and this
     * node has room for them all (the first parameter; there is nothing to be fair to; dated {@link #CLAIM_INSTANT}, after the
     * wait for the locks), else waiting, each share told so by its first turn when it did not know (an owner that had none
     * waiting rejoins at the pass being served, or its own when that is further: it does not catch up on the time it had
     * nothing to run) or when that turn is below the share's cursor (recorded out of order: the cursor moves down to it). A
     * share that knows already is neither written nor locked, so a flood writes its share once. Run after the shares' locks,
     * shared ({@link #SHARES_LOCK}): a claim of a share either committed before (this statement sees what it left) or waits
     * for this statement's commit (and then sees the turns).
     * The turns come as arrays, one per column; answers each turn recorded now (one known already is left out), how, and
     * the instance and agent of one claimed at once.
     */
    private static final String RECORD = "WITH direct AS (SELECT ?::boolean AND NOT EXISTS (SELECT 1 FROM local_fair_share WHERE ready > 0) AS now,"
            + " " + CLAIM_INSTANT + " AS at),"
            + " given AS (SELECT * FROM unnest(?::text[], ?::uuid[], ?::int[], ?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::bigint[],"
            + " ?::bigint[], ?::text[], ?::int[], ?::float8[]) AS g (kind, channel_id, turn, instance_id, agent_id, owner_id, context_id,"
            + " runtime_epoch, log_window, input, priority, stride)),"
            + " recorded AS (INSERT INTO local_turn (kind, channel_id, turn, instance_id, agent_id, owner_id, context_id, runtime_epoch,"
            + " log_window, input, priority, state, claimed_by, claimed_at, created_at, updated_at)"
            + " SELECT g.kind, g.channel_id, g.turn, g.instance_id, g.agent_id, g.owner_id, g.context_id, g.runtime_epoch, g.log_window,"
            + " g.input::jsonb, g.priority, CASE WHEN direct.now THEN 'running' ELSE 'ready' END, CASE WHEN direct.now THEN ? END, direct.at, ?, ?"
            + " FROM given g, direct ON CONFLICT DO NOTHING RETURNING channel_id, turn, instance_id, agent_id, owner_id, priority, state,"
            + " log_window),"
            + " firsts AS (SELECT r.owner_id, r.priority, min(r.log_window) AS log_window, max(g.stride) AS stride FROM recorded r"
            + " JOIN given g ON g.channel_id = r.channel_id AND g.turn = r.turn WHERE r.state = 'ready' GROUP BY r.owner_id, r.priority),"
            + " share AS (INSERT INTO local_fair_share AS f (owner_id, priority, pass, ready, stride, claimed_through)"
            + " SELECT r.owner_id, r.priority, c.pass, 1, r.stride, r.log_window - 1 FROM firsts r JOIN local_fair_clock c ON c.priority = r.priority"
            + " WHERE NOT EXISTS (SELECT 1 FROM local_fair_share k WHERE k.owner_id = r.owner_id"
            + " AND k.priority = r.priority AND k.ready > 0 AND k.claimed_through < r.log_window)"
            + " ON CONFLICT (owner_id, priority) DO UPDATE SET ready = 1, stride = EXCLUDED.stride,"
            + " pass = CASE WHEN f.ready = 0 THEN GREATEST(f.pass, EXCLUDED.pass) ELSE f.pass END,"
            + " claimed_through = CASE WHEN f.ready = 0 THEN EXCLUDED.claimed_through ELSE LEAST(f.claimed_through, EXCLUDED.claimed_through) END"
            + " WHERE f.ready = 0 OR EXCLUDED.claimed_through < f.claimed_through)"
            + " SELECT r.channel_id, r.turn, r.state AS recorded, i.state, i.runtime_epoch AS instance_epoch, a.model, a.instructions"
            + " FROM recorded r LEFT JOIN local_instance i ON r.state = 'running' AND i.instance_id = r.instance_id"
            + " LEFT JOIN local_agent a ON a.instance_id = i.instance_id AND a.agent_id = r.agent_id";
    /**
     * The share to claim from next: of the shares with turns waiting, the one with the lowest pass (interactive ones first).
     * Read without a lock: the claim takes the share's own ({@link #SHARE_LOCK}, exclusive) and reads it again.
     */
    private static final String PICK = "SELECT owner_id, priority FROM local_fair_share WHERE ready > 0 ORDER BY priority, pass LIMIT 1";
    /**
     * Claims the share's oldest waiting turns above its cursor (owner and priority, twice; at most how many, twice), as many as
     * keep its pass within one stride past its rival's as they are now (none when another node's claims made another share
     * the one to serve), moves its pass on by what was claimed, its cursor to the last one, says whether it has more waiting,
     * and moves the pass being served (to the share's pass before the claim). Run after the share's lock, exclusive
     * ({@link #SHARE_LOCK}), in its transaction: no turn of the share is being recorded, and this statement sees every one
     * recorded and the share as the last claim left it. Answers each turn with its instance and agent.
     */
    private static final String CLAIM = "WITH share AS (SELECT f.owner_id, f.priority, f.pass, f.stride, f.claimed_through, (SELECT min(r.pass)"
            + " FROM local_fair_share r WHERE r.priority = f.priority AND r.owner_id <> f.owner_id AND r.ready > 0) AS rival"
            + " FROM local_fair_share f WHERE f.owner_id = ? AND f.priority = ? AND f.ready > 0),"
            // the cursor as a value (an init plan), not a join: the index scan starts at it instead of filtering from the range's start
            + " take AS (SELECT l.channel_id, l.turn, l.log_window FROM local_turn l WHERE l.owner_id = ? AND l.priority = ? AND l.state = 'ready'"
            + " AND l.log_window > (SELECT claimed_through FROM share) ORDER BY l.log_window"
            + " LIMIT (SELECT CASE WHEN rival IS NULL THEN ? ELSE LEAST(?, GREATEST(0, 1 + floor((rival - pass) / stride)::int)) END FROM share)"
            + " FOR UPDATE OF l),"
            + " claimed AS (UPDATE local_turn l SET state = 'running', claimed_by = ?, claimed_at = (SELECT " + CLAIM_INSTANT + "),"
            + " updated_at = ? FROM take WHERE l.channel_id = take.channel_id AND l.turn = take.turn"
            + " RETURNING l.kind, l.channel_id, l.turn, l.instance_id, l.agent_id, l.owner_id, l.context_id, l.runtime_epoch, l.log_window,"
            + " l.input, l.priority),"
            + " through AS (SELECT s.owner_id, s.priority, GREATEST(s.claimed_through, (SELECT max(log_window) FROM take)) AS upto FROM share s),"
            + " moved AS (UPDATE local_fair_share f SET pass = f.pass + f.stride * (SELECT count(*) FROM claimed), claimed_through = t.upto,"
            + " ready = CASE WHEN EXISTS (SELECT 1 FROM local_turn l WHERE l.owner_id = t.owner_id AND l.priority = t.priority"
            + " AND l.state = 'ready' AND l.log_window > t.upto) THEN 1 ELSE 0 END"
            + " FROM through t WHERE f.owner_id = t.owner_id AND f.priority = t.priority),"
            + " clock AS (UPDATE local_fair_clock c SET pass = s.pass FROM share s WHERE c.priority = s.priority AND c.pass < s.pass)"
            + " SELECT c.kind, c.channel_id, c.turn, c.instance_id, c.agent_id, c.owner_id, c.context_id, c.runtime_epoch, c.log_window,"
            + " c.input::text AS input, c.priority, i.state, i.runtime_epoch AS instance_epoch, a.model, a.instructions FROM claimed c"
            + " LEFT JOIN local_instance i ON i.instance_id = c.instance_id"
            + " LEFT JOIN local_agent a ON a.instance_id = i.instance_id AND a.agent_id = c.agent_id ORDER BY c.log_window";
    /**
     * A running turn {@code l} nobody works on: claimed before the takeover delay (the first two parameters, the same instant)
     * by a node not heard from since, or by this node (the third) which no longer holds it (the channels and turns it holds
     * are the fourth and fifth: a turn whose failure could not be recorded either).
     */
    private static final String FORSAKEN = " l.state = 'running' AND l.claimed_at < ? AND (NOT EXISTS (SELECT 1 FROM local_runtime_node n"
            + " WHERE n.node = l.claimed_by AND n.heartbeat_at >= ?) OR (l.claimed_by = ?"
            + " AND (l.channel_id, l.turn) NOT IN (SELECT * FROM unnest(?::uuid[], ?::int[]))))";

    private final MeterRegistry meters;
    private final Map<String, Timer> turnTimers = new ConcurrentHashMap<>();
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final ChannelChunks chunks;
    /** The owner's texts: the turn's message opened for the model, its chunks and answer sealed for the store. */
    private final PersonalContent content;
    private final TurnReports reports;
    private final ModelBackends backends;
    private final ScheduledExecutorService timers;
    private final Executor workers;
    private final Executor claimer;
    private final Clock clock;
    private final Duration staleAfter;
    private final int maxQueued;
    private final Function<OwnerId, Integer> weights;
    /** Turns handed to the workers that no worker has begun yet. */
    private final AtomicInteger queued = new AtomicInteger();
    /** Those turns, most urgent first: the workers take them from here ({@link #beginNext}). */
    private final PriorityBlockingQueue<ClaimedTurn> claimed = new PriorityBlockingQueue<>(16, ClaimedTurn.MOST_URGENT);
    private final AtomicLong claims = new AtomicLong();
    /**
     * Released when a turn is handed in here to wait, or when workers took half the claimed ones while turns may wait: the
     * claimer looks again.
     */
    private final Semaphore wake = new Semaphore(0);
    /** How many hand-ins here left turns waiting, counted once each committed. */
    private final AtomicLong waitingHandIns = new AtomicLong();
    /**
     * That count as it was before the claimer's last look that found nothing waiting, or -1 when turns may wait (none such
     * look since a claim took some): see {@link #mayWait}. The claimer's own.
     */
    private volatile long nothingWaitedAsOf = -1;
    /** How many times the claimer was woken to look (not by its poll). */
    private final LongAdder wokenLooks = new LongAdder();
    private final AtomicBoolean claiming = new AtomicBoolean();
    private final String node = UUID.randomUUID().toString();
    private final Map<UUID, Live> live = new ConcurrentHashMap<>();
    /** Turns whose outcome the task or conversation took, marked so in the next write of marks. */
    private final Queue<ChannelTurn> reported = new ConcurrentLinkedQueue<>();
    /** Turns whose outcome this node is reporting now: a recovery does not report them again while the first report is under way. */
    private final Set<ChannelTurn> reporting = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean markPending = new AtomicBoolean();
    private volatile boolean nodeRecorded;

    /** A turn of a task or conversation ({@code channel}). */
    private record ChannelTurn(UUID channel, int turn) {
    }

    /** A turn claimed by this node that no worker has begun yet, {@code order}-th of those claimed here. */
    private record ClaimedTurn(Live running, Map<String, Object> placement, long order) {

        static final Comparator<ClaimedTurn> MOST_URGENT = Comparator
                .<ClaimedTurn>comparingInt(claimed -> claimed.running().turn.interactive() ? INTERACTIVE : BATCH)
                .thenComparingLong(ClaimedTurn::order);
    }

    /** A turn recorded now: claimed at once by this node (with its instance and agent), or waiting. */
    private record Recorded(ChannelTurn turn, boolean runsNow, Map<String, Object> placement) {
    }

    /** A turn running on this node. */
    private static final class Live {

        private final AgentTurn turn;
        /** When a worker began it (a turn may wait for a worker first). */
        private volatile long startedNanos = System.nanoTime();
        /** When a worker began it to run it (null until then, and for a turn that ended before running: its agent gone). */
        private volatile TurnBegan began;
        private volatile boolean over;
        private volatile Disposable stream;

        Live(AgentTurn turn) {
            this.turn = turn;
        }

        UUID channel() {
            return turn.channel();
        }
    }

    /**
     * @param claimer   where the claimer loops (one thread)
     * @param maxQueued how many claimed turns may wait for a worker
     * @param weights   each owner's weight in the fair order (its share of the turns while others wait too)
     */
    LocalAgentTurns(JdbcTemplate jdbc, TransactionTemplate transactions, ChannelChunks chunks, TurnReports reports, ModelBackends backends,
            ScheduledExecutorService timers, Executor workers, Executor claimer, Clock clock, Duration staleAfter, int maxQueued,
            Function<OwnerId, Integer> weights, PersonalContent content, MeterRegistry meters) {
        this.meters = meters;
        this.content = content;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.chunks = chunks;
        this.reports = reports;
        this.backends = backends;
        this.timers = timers;
        this.workers = workers;
        this.claimer = claimer;
        this.clock = clock;
        this.staleAfter = staleAfter;
        this.maxQueued = maxQueued;
        this.weights = weights;
        // the queue the workers take from: a turn counted here is one a free worker would find
        Gauge.builder("agent.platform.turns.claimed.waiting", claimed, PriorityBlockingQueue::size)
                .description("Turns this node claimed that wait for one of its turn workers").register(meters);
        FunctionCounter.builder("agent.platform.turns.claimer.woken", wokenLooks, LongAdder::sum)
                .description("Times this node's claimer was woken to look for waiting turns (not by its poll)").register(meters);
    }

    /**
     * Records the turns, in one statement, except those known already: run here at once when nothing waits and the workers
     * are about to be free for them all, else waiting, with this node's claimer woken. A known one (handed again by the
     * sweeper while its first hand-off was on its way, or again after a processor's retry) is left to {@link #recover}: taken
     * over if its node went silent, reported again if its outcome was not taken.
     */
    void start(List<AgentTurn> turns) {
        if (turns.isEmpty()) {
            return;
        }
        claimFromNowOn();
        if (!nodeRecorded) {
            renewNode();
        }
        OffsetDateTime now = now();
        Object[] owners = turns.stream().map(turn -> turn.ownerId().value()).toArray(UUID[]::new);
        Object[] priorities = turns.stream().map(turn -> turn.interactive() ? INTERACTIVE : BATCH).toArray(Integer[]::new);
        List<Object> columns = Arrays.asList(queued.get() + turns.size() <= maxQueued, clockOffsetMicros(),
                turns.stream().map(turn -> turn.kind().wireName()).toArray(String[]::new),
                turns.stream().map(AgentTurn::channel).toArray(UUID[]::new),
                turns.stream().map(AgentTurn::turn).toArray(Integer[]::new),
                turns.stream().map(turn -> turn.instanceId().value()).toArray(UUID[]::new),
                turns.stream().map(turn -> turn.agentId().value()).toArray(UUID[]::new),
                owners,
                turns.stream().map(AgentTurn::contextId).toArray(String[]::new),
                turns.stream().map(AgentTurn::runtimeEpoch).toArray(Long[]::new),
                turns.stream().map(AgentTurn::logWindow).toArray(Long[]::new),
                turns.stream().map(turn -> JSON.writeValueAsString(turn.message())).toArray(String[]::new),
                priorities,
                turns.stream().map(turn -> 1.0 / Math.max(1, weights.apply(turn.ownerId()))).toArray(Double[]::new),
                node, now, now);
        // under the shares' locks, shared, in one round trip with them
        Map<ChannelTurn, Recorded> recorded = AfterLock.rows(jdbc, SHARES_LOCK, RECORD, AfterLock.arguments(List.of(owners, priorities), columns),
                        (row, index) -> new Recorded(new ChannelTurn(row.getObject("channel_id", UUID.class), row.getInt("turn")),
                                "running".equals(row.getString("recorded")), placementOf(row)))
                .stream()
                .collect(Collectors.toMap(Recorded::turn, Function.identity()));
        boolean waiting = false;
        for (AgentTurn turn : turns) {
            Recorded record = recorded.get(new ChannelTurn(turn.channel(), turn.turn()));
            if (record == null) {
                log.atDebug().addKeyValue(turn.kind().wireName() + "_id", turn.channel().toString()).addKeyValue("turn", turn.turn())
                        .log("the turn is known already; the recovery sweep sees to it");
            } else if (record.runsNow()) {
                run(turn, record.placement());
            } else {
                waiting = true;
            }
        }
        if (waiting) {
            waitingHandIns.incrementAndGet();
            wake.release();
        }
    }

    /** Starts this node's claimer, once: from the first turn handed in or the first sweep (turns may wait from before a restart). */
    private void claimFromNowOn() {
        if (claiming.compareAndSet(false, true)) {
            claimer.execute(this::claimLoop);
        }
    }

    /**
     * Claims turns while this node's workers have room for them, and waits for a wake (a turn handed in here, a worker taking
     * one) or, at most {@value #CLAIM_POLL_MS} ms, for turns handed in on other nodes. Ends when its thread is interrupted
     * (the executor shut down).
     */
    private void claimLoop() {
        boolean failing = false;
        int looked = 0;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                int room = maxQueued - queued.get();
                int claimed = room > 0 ? claim(Math.min(room, CLAIM_BATCH)) : 0;
                if (failing) {
                    log.atInfo().log("turns are claimed again");
                    failing = false;
                }
                looked = claimed == LOOK_AGAIN ? looked + 1 : 0;
                if (claimed == 0 || claimed >= room || looked > MAX_LOOKS) {
                    looked = 0;
                    if (wake.tryAcquire(CLAIM_POLL_MS, TimeUnit.MILLISECONDS)) {
                        wokenLooks.increment();
                    }
                    wake.drainPermits();
                }
            } catch (InterruptedException stopping) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException failure) {
                if (!failing) {
                    log.atWarn().setCause(failure).log("turns could not be claimed; trying again every second");
                    failing = true;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(CLAIM_BACKOFF_MS));
            }
        }
    }

    /**
     * Claims up to {@code max} turns in the fair order and hands them to the workers; answers how many, or {@link #LOOK_AGAIN}
     * when the share picked gave none but another may.
     */
    private int claim(int max) {
        if (!nodeRecorded) {
            renewNode();
        }
        // prepared (JdbcTemplate runs a statement without arguments as a plain one, planned again at every call)
        long handIns = waitingHandIns.get();
        List<Map<String, Object>> picked = jdbc.query(connection -> connection.prepareStatement(PICK), new ColumnMapRowMapper());
        if (picked.isEmpty()) {
            nothingWaitedAsOf = handIns;
            return 0;
        }
        UUID owner = (UUID) picked.getFirst().get("owner_id");
        int priority = ((Number) picked.getFirst().get("priority")).intValue();
        List<Claimed> taken = transactions.execute(status -> {
            jdbc.query(SHARE_LOCK, row -> null, owner, priority);
            return jdbc.query(CLAIM, (row, index) -> new Claimed(turnOf(row), placementOf(row)), owner, priority, owner, priority, max, max,
                    node, clockOffsetMicros(), now());
        });
        if (!taken.isEmpty()) {
            nothingWaitedAsOf = -1;
        }
        taken.forEach(next -> run(next.turn(), next.placement()));
        // a share picked, none taken: another node's claims made another share the one to serve, or its flag was stale
        return taken.isEmpty() ? LOOK_AGAIN : taken.size();
    }

    /** A claimed turn, with its instance and agent as the runtime has them. */
    private record Claimed(AgentTurn turn, Map<String, Object> placement) {
    }

    private static AgentTurn turnOf(ResultSet row) throws SQLException {
        return new AgentTurn(AgentTurn.Kind.fromWireName(row.getString("kind")), row.getObject("channel_id", UUID.class),
                new OwnerId(row.getObject("owner_id", UUID.class)), new AgentId(row.getObject("agent_id", UUID.class)),
                new InstanceId(row.getObject("instance_id", UUID.class)), row.getString("context_id"), row.getInt("turn"),
                row.getLong("runtime_epoch"), row.getLong("log_window"), JSON.readValue(row.getString("input"), TaskMessage.class),
                row.getInt("priority") == INTERACTIVE);
    }

    private static Map<String, Object> placementOf(ResultSet row) throws SQLException {
        Map<String, Object> placement = new HashMap<>();
        placement.put("state", row.getString("state"));
        placement.put("runtime_epoch", row.getObject("instance_epoch"));
        placement.put("model", row.getString("model"));
        placement.put("instructions", row.getString("instructions"));
        return placement;
    }

    /** Of these started turns, those this runtime has no record of (by channel and the window of the event that started them). */
    Set<TurnStart> unknown(Collection<TurnStart> started) {
        if (started.isEmpty()) {
            return Set.of();
        }
        List<TurnStart> asked = List.copyOf(started);
        return Set.copyOf(jdbc.query("SELECT s.channel_id, s.log_window FROM unnest(?::uuid[], ?::bigint[]) AS s(channel_id, log_window)"
                        + " WHERE NOT EXISTS (SELECT 1 FROM local_turn l WHERE l.channel_id = s.channel_id AND l.log_window = s.log_window)",
                (row, index) -> new TurnStart(row.getObject("channel_id", UUID.class), row.getLong("log_window")),
                asked.stream().map(TurnStart::channel).toArray(UUID[]::new), asked.stream().map(TurnStart::logWindow).toArray(Long[]::new)));
    }

    /** Stops the channel's waiting or running turn: {@code turn} only, or whichever it is when it is empty. */
    void stop(UUID channel, OptionalInt turn) {
        Live running = live.get(channel);
        if (running != null && (turn.isEmpty() || running.turn.turn() == turn.getAsInt()) && live.remove(channel, running)) {
            end(running);
        }
        if (turn.isEmpty()) {
            jdbc.update("UPDATE local_turn SET state = 'stopped', updated_at = ? WHERE channel_id = ? AND state IN ('ready', 'running')",
                    now(), channel);
        } else {
            markStopped(channel, turn.getAsInt());
        }
    }

    private void markStopped(UUID channel, int turn) {
        // a waiting one leaves its share counting it: the next claim of that share finds it gone
        jdbc.update("UPDATE local_turn SET state = 'stopped', updated_at = ? WHERE channel_id = ? AND turn = ?"
                + " AND state IN ('ready', 'running')", now(), channel, turn);
    }

    /** The instance stopped, restarted or was destroyed: its running turns end without an answer from the agent. */
    void abortOn(InstanceId instance, String why) {
        live.values().stream().filter(running -> running.turn.instanceId().equals(instance)).forEach(running -> {
            live.remove(running.channel(), running);
            end(running);
            finish(running.turn, running.began, new Unavailable(AGENT_OFFLINE, why));
        });
    }

    /**
     * Keeps this node alive, takes over turns whose node went silent, and reports outcomes that were recorded but not
     * taken (the sweeper calls this). Liveness is the node's: a turn, queued or long, costs no write per sweep.
     */
    void recover() {
        claimFromNowOn();
        renewNode();
        OffsetDateTime stale = OffsetDateTime.ofInstant(clock.instant().minus(staleAfter), ZoneOffset.UTC);
        List<Live> held = List.copyOf(live.values());
        Object[] forsaken = {stale, stale, node, held.stream().map(running -> running.channel().toString()).toArray(String[]::new),
                held.stream().mapToInt(running -> running.turn.turn()).toArray()};
        // a forsaken turn of a channel that has gone on to a later turn is over, not an orphan to run again
        jdbc.update("UPDATE local_turn l SET state = 'stopped', updated_at = ? WHERE" + FORSAKEN
                + " AND EXISTS (SELECT 1 FROM local_turn later WHERE later.channel_id = l.channel_id AND later.turn > l.turn)",
                Stream.concat(Stream.of(now()), Stream.of(forsaken)).toArray());
        // taken over is claimed again, and dated as every claim is (CLAIM_INSTANT): the claims' record keeps one clock
        List<AgentTurn> orphans = jdbc.query("UPDATE local_turn l SET claimed_by = ?, claimed_at = (SELECT " + CLAIM_INSTANT + "),"
                        + " updated_at = ? WHERE" + FORSAKEN
                        + " RETURNING kind, channel_id, turn, instance_id, agent_id, owner_id, context_id, runtime_epoch, log_window,"
                        + " input::text AS input, priority",
                (row, index) -> turnOf(row),
                Stream.concat(Stream.of(node, clockOffsetMicros(), now()), Stream.of(forsaken)).toArray());
        orphans.forEach(turn -> {
            log.atInfo().addKeyValue(turn.kind().wireName() + "_id", turn.channel().toString()).addKeyValue("turn", turn.turn())
                    .log("taking over a turn whose node went silent");
            run(turn, null);
        });
        // the full look behind the cursors: a share told it has nothing waiting while it has, or with a turn waiting at or
        // below its cursor, waits again from that turn (claims and hand-offs keep both true; this is the net under them)
        jdbc.update("WITH first AS (SELECT f.owner_id, f.priority, (SELECT min(l.log_window) FROM local_turn l WHERE l.owner_id = f.owner_id"
                + " AND l.priority = f.priority AND l.state = 'ready') AS log_window FROM local_fair_share f)"
                + " UPDATE local_fair_share f SET ready = 1, pass = CASE WHEN f.ready = 0 THEN GREATEST(f.pass, c.pass) ELSE f.pass END,"
                + " claimed_through = LEAST(f.claimed_through, w.log_window - 1) FROM first w, local_fair_clock c"
                + " WHERE w.owner_id = f.owner_id AND w.priority = f.priority AND c.priority = f.priority"
                + " AND w.log_window IS NOT NULL AND (f.ready = 0 OR w.log_window <= f.claimed_through)");
        // silent nodes whose turns are all taken over are forgotten
        jdbc.update("DELETE FROM local_runtime_node n WHERE n.heartbeat_at < ?"
                + " AND NOT EXISTS (SELECT 1 FROM local_turn l WHERE l.claimed_by = n.node AND l.state = 'running')", stale);
        jdbc.query("SELECT kind, channel_id, turn, log_window, began_at, outcome::text AS outcome FROM local_turn"
                + " WHERE state = 'finished' AND updated_at < ?",
                row -> {
                    OffsetDateTime began = row.getObject("began_at", OffsetDateTime.class);
                    report(AgentTurn.Kind.fromWireName(row.getString("kind")), row.getObject("channel_id", UUID.class), row.getInt("turn"),
                            decode(row.getString("outcome")), began == null ? null : new TurnBegan(row.getLong("log_window"), began.toInstant()));
                }, stale);
    }

    /** This node's liveness, which keeps every turn it holds from being taken over. */
    private void renewNode() {
        jdbc.update("INSERT INTO local_runtime_node (node, heartbeat_at) VALUES (?, ?)"
                + " ON CONFLICT (node) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at", node, now());
        nodeRecorded = true;
    }

    /** Runs the turn on a worker; {@code placement} is its instance and agent when read already (else null). */
    private void run(AgentTurn turn, Map<String, Object> placement) {
        Live running = new Live(turn);
        Live[] replaced = new Live[1];
        Live current = live.compute(running.channel(), (channel, previous) -> {
            if (previous != null && previous.turn.turn() > turn.turn()) {
                return previous;
            }
            replaced[0] = previous;
            return running;
        });
        if (current != running) {
            // a later turn of the channel runs here, so this one is over: its stop came before its start, or it was taken over late
            markStopped(turn.channel(), turn.turn());
            return;
        }
        if (replaced[0] != null) {
            end(replaced[0]);
            if (replaced[0].turn.turn() < turn.turn()) {
                markStopped(turn.channel(), replaced[0].turn.turn());
            }
        }
        queued.incrementAndGet();
        claimed.add(new ClaimedTurn(running, placement, claims.getAndIncrement()));
        workers.execute(this::beginNext);
    }

    /**
     * Begins the most urgent turn claimed here (interactive first, then in the order they were claimed): a worker free
     * takes it, not the turn whose hand-in gave it work, so a caller's invoke claimed behind a batch's turns begins first.
     */
    private void beginNext() {
        ClaimedTurn next = claimed.poll();
        if (next == null) {
            return;
        }
        // the claimer looks again once half the room is free: claims of several turns, not one per turn begun
        if (queued.decrementAndGet() <= maxQueued / 2 && mayWait()) {
            wake.release();
        }
        if (next.running().over) {
            // stopped, aborted with its instance, or run again by the recovery while it waited here: nothing to begin
            return;
        }
        AgentTurn turn = next.running().turn;
        guarded(next.running(), () -> begin(next.running(), next.placement() != null ? next.placement()
                : jdbc.queryForMap("SELECT" + PLACEMENT, turn.instanceId().value(), turn.agentId().value()))).run();
    }

    /**
     * Whether turns may wait in the table for this node's claimer: not when its last look found none and no turn was handed in
     * here to wait since that look began (a hand-in counts once committed, so one the look could not see counts after the
     * look's start). While none may wait a worker taking a turn does not wake the claimer: when every turn runs at once, a
     * look per turn begun found nothing, a statement per task. Other nodes' turns are found by the claimer's poll, as when it
     * is idle.
     */
    private boolean mayWait() {
        return waitingHandIns.get() != nothingWaitedAsOf;
    }

    /** The action, or (when it throws) the turn failed as {@code internal_error}; a worker thread never dies of a turn. */
    private Runnable guarded(Live running, Runnable action) {
        return () -> {
            try {
                action.run();
            } catch (RuntimeException failure) {
                log.atWarn().addKeyValue(running.turn.kind().wireName() + "_id", running.channel().toString()).setCause(failure)
                        .log("the turn failed");
                try {
                    complete(running, new Unavailable("internal_error", "The agent's runtime failed while it worked on the turn"));
                } catch (RuntimeException alsoFailing) {
                    // the outcome could not be recorded either: the stale-turn sweep (recover) fails the turn later
                    log.atWarn().addKeyValue(running.turn.kind().wireName() + "_id", running.channel().toString()).setCause(alsoFailing)
                            .log("the failed turn could not be recorded; the stale-turn sweep will");
                }
            }
        };
    }

    /**
     * Runs the turn, unless its instance or agent is not there. A task's turn that does not end at once tells its task it
     * began (the task is running from now on); one that does tells it with its outcome, in one command.
     */
    private void begin(Live running, Map<String, Object> placement) {
        running.startedNanos = System.nanoTime();
        if (!"running".equals(placement.get("state"))
                || ((Number) placement.get("runtime_epoch")).longValue() > running.turn.runtimeEpoch()) {
            complete(running, new Unavailable(AGENT_OFFLINE, "The agent's instance is not running the runtime this turn was sent to"));
            return;
        }
        String model = (String) placement.get("model");
        if (model == null) {
            complete(running, new Unavailable("agent_not_found", "The agent no longer exists on its instance"));
            return;
        }
        running.began = new TurnBegan(running.turn.logWindow(), clock.instant());
        if (backends.isEcho(model)) {
            EchoAgent.Plan plan = EchoAgent.plan(running.turn.message().personal(content.opener(running.turn.ownerId())),
                    () -> earlierTurns(running));
            if (plan.stepDelayMs() > 0 || plan.outcome() == null) {
                tellBegan(running);
            }
            later(running, plan.stepDelayMs(), () -> step(running, plan, 0));
        } else {
            tellBegan(running);
            ask(running, model, (String) placement.get("instructions"));
        }
    }

    /**
     * Tells the turn's task that it began, without waiting: its chunks are shown once the task's log has the status (they
     * follow it in the turn's window), and its outcome tells it again should this be lost.
     */
    private void tellBegan(Live running) {
        AgentTurn turn = running.turn;
        reports.begin(turn.kind(), turn.channel(), turn.turn(), running.began).whenComplete((taken, failure) -> {
            if (failure != null) {
                log.atDebug().addKeyValue(turn.kind().wireName() + "_id", turn.channel().toString()).setCause(failure)
                        .log("the turn's start not told; its outcome tells it");
            }
        });
    }

    /**
     * Streams the echo plan's chunks from {@code index}: one per step when the plan takes its time, all at
     * once when it does not; then the outcome.
     */
    private void step(Live running, EchoAgent.Plan plan, int index) {
        if (running.over) {
            return;
        }
        if (index == plan.chunks().size()) {
            if (plan.outcome() != null) {
                complete(running, plan.outcome());
            }
            return;
        }
        int until = plan.stepDelayMs() > 0 ? index + 1 : plan.chunks().size();
        List<ChannelChunks.Chunk> batch = new ArrayList<>();
        for (int seq = index; seq < until; seq++) {
            EchoAgent.Chunk chunk = plan.chunks().get(seq);
            batch.add(new ChannelChunks.Chunk(seq, chunk.kind(), content.seal(running.turn.ownerId(), chunk.text())));
        }
        if (plan.stepDelayMs() == 0 && plan.outcome() != null) {
            // the whole answer at once: the outcome is recorded with the chunks, in their statement
            finishWith(running, batch, plan.outcome());
            return;
        }
        if (chunks.append(running.channel(), running.turn.turn(), running.turn.logWindow(), batch) == Written.TURN_OVER) {
            overAlready(running);
            return;
        }
        later(running, plan.stepDelayMs(), () -> step(running, plan, until));
    }

    /** Writes the turn's last chunks and records its outcome in one statement, then reports it. */
    private void finishWith(Live running, List<ChannelChunks.Chunk> last, TurnOutcome outcome) {
        AgentTurn turn = running.turn;
        TurnOutcome stored = outcome.personal(content.sealer(turn.ownerId()));
        WrittenAlong written = chunks.append(turn.channel(), turn.turn(), turn.logWindow(), last, recordOutcome(turn, running.began, stored));
        switch (written.written()) {
            case TURN_OVER -> overAlready(running);
            case DROPPED -> complete(running, outcome);
            case WRITTEN -> {
                if (!running.over) {
                    ended(running, outcome);
                }
                if (written.applied()) {
                    report(turn.kind(), turn.channel(), turn.turn(), stored, running.began);
                }
            }
        }
    }

    /**
     * The earlier turns of the task or conversation that the agent answered, oldest first, as chat messages: each
     * the caller's message, then the agent's answer.
     */
    private List<ChatMessage> earlierTurns(Live running) {
        List<ChatMessage> chat = new ArrayList<>();
        UnaryOperator<String> open = content.opener(running.turn.ownerId());
        jdbc.query("SELECT input::text AS input, outcome::text AS outcome FROM local_turn WHERE channel_id = ? AND turn < ?"
                + " AND outcome IS NOT NULL ORDER BY turn", row -> {
                    chat.add(new ChatMessage("user", open.apply(JSON.readValue(row.getString("input"), TaskMessage.class).text())));
                    chat.add(new ChatMessage("assistant", open.apply(textOf(decode(row.getString("outcome"))))));
                }, running.channel(), running.turn.turn());
        return chat;
    }

    /** Streams the model's reply from the OpenAI-compatible endpoint, with the earlier turns as the chat. */
    private void ask(Live running, String model, String instructions) {
        List<ChatMessage> chat = earlierTurns(running);
        chat.add(new ChatMessage("user", content.open(running.turn.ownerId(), running.turn.message().text())));
        StringBuilder reply = new StringBuilder();
        AtomicInteger seq = new AtomicInteger();
        running.stream = backends.stream(model, instructions, chat)
                .publishOn(Schedulers.fromExecutor(workers))
                .takeWhile(delta -> !running.over)
                .subscribe(
                        delta -> {
                            reply.append(delta);
                            ChannelChunks.Chunk chunk = new ChannelChunks.Chunk(seq.getAndIncrement(), ChannelChunks.AGENT_REPLY_DELTA,
                                    content.seal(running.turn.ownerId(), delta));
                            if (chunks.append(running.channel(), running.turn.turn(), running.turn.logWindow(), List.of(chunk))
                                    == Written.TURN_OVER) {
                                overAlready(running);
                            }
                        },
                        failure -> complete(running, new Unavailable("agent_service_unavailable",
                                "The agent's model service failed: " + failure.getClass().getSimpleName())),
                        () -> complete(running, new Replied(reply.toString())));
    }

    private void complete(Live running, TurnOutcome outcome) {
        if (running.over) {
            return;
        }
        ended(running, outcome);
        finish(running.turn, running.began, outcome);
    }

    /** The turn ended on this node with {@code outcome}: no longer live, and timed. */
    private void ended(Live running, TurnOutcome outcome) {
        forget(running);
        turnTimers.computeIfAbsent(outcomeName(outcome), name -> Timer.builder("agent.platform.turns")
                        .description("How long the agent worked on a turn, by how it ended").tag("outcome", name).register(meters))
                .record(System.nanoTime() - running.startedNanos, TimeUnit.NANOSECONDS);
    }

    private static String outcomeName(TurnOutcome outcome) {
        return switch (outcome) {
            case Replied replied -> "replied";
            case NeedsInput input -> "needs_input";
            case NeedsAuth auth -> "needs_auth";
            case AgentFailed failed -> "agent_failed";
            case Rejected rejected -> "rejected";
            case Unavailable unavailable -> "unavailable";
        };
    }

    /** Records the outcome, then reports it; a report that fails is retried by {@link #recover}. */
    private void finish(AgentTurn turn, TurnBegan began, TurnOutcome outcome) {
        TurnOutcome stored = outcome.personal(content.sealer(turn.ownerId()));
        ChannelChunks.Along record = recordOutcome(turn, began, stored);
        if (jdbc.update(record.statement(), record.arguments().toArray()) == 1) {
            report(turn.kind(), turn.channel(), turn.turn(), stored, began);
        }
    }

    /** The running turn's outcome recorded, with when it began (null: it never did): it is finished, to be reported. */
    private ChannelChunks.Along recordOutcome(AgentTurn turn, TurnBegan began, TurnOutcome outcome) {
        return ChannelChunks.Along.of("UPDATE local_turn SET state = 'finished', outcome = ?::jsonb, began_at = ?, updated_at = ?"
                + " WHERE channel_id = ? AND turn = ? AND state = 'running'", encode(outcome),
                began == null ? null : OffsetDateTime.ofInstant(began.at(), ZoneOffset.UTC), now(), turn.channel(), turn.turn());
    }

    private void report(AgentTurn.Kind kind, UUID channel, int turn, TurnOutcome outcome, TurnBegan began) {
        ChannelTurn key = new ChannelTurn(channel, turn);
        if (!reporting.add(key)) {
            return;
        }
        reports.report(kind, channel, turn, outcome, began).whenComplete((taken, failure) -> {
            reporting.remove(key);
            if (failure == null) {
                markReported(channel, turn);
            } else {
                log.atWarn().addKeyValue(kind.wireName() + "_id", channel.toString()).setCause(failure)
                        .log("turn outcome not reported; will retry");
            }
        });
    }

    /**
     * Marks the turn reported, with the others reported within {@value #MARK_DELAY_MS} ms, in one statement. A mark
     * that never gets written (a crash, a failing statement) leaves the turn finished: {@link #recover} reports it again
     * later, which the task or conversation refuses as over.
     */
    private void markReported(UUID channel, int turn) {
        reported.add(new ChannelTurn(channel, turn));
        if (markPending.compareAndSet(false, true)) {
            timers.schedule(() -> workers.execute(this::writeMarks), MARK_DELAY_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void writeMarks() {
        markPending.set(false);
        List<ChannelTurn> marks = new ArrayList<>();
        for (ChannelTurn mark = reported.poll(); mark != null; mark = reported.poll()) {
            marks.add(mark);
        }
        if (marks.isEmpty()) {
            return;
        }
        try {
            jdbc.update("UPDATE local_turn l SET state = 'reported', updated_at = ? FROM unnest(?::uuid[], ?::int[]) AS r(channel_id, turn)"
                            + " WHERE l.channel_id = r.channel_id AND l.turn = r.turn AND l.state = 'finished'", now(),
                    marks.stream().map(mark -> mark.channel().toString()).toArray(String[]::new),
                    marks.stream().mapToInt(ChannelTurn::turn).toArray());
        } catch (RuntimeException failure) {
            log.atWarn().addKeyValue("turns", marks.size()).setCause(failure)
                    .log("reported turns not marked; they will be reported again");
        }
    }

    /** The task or conversation has ended the turn (canceled, timed out): it stops here too. */
    private void overAlready(Live running) {
        forget(running);
        markStopped(running.channel(), running.turn.turn());
    }

    private void forget(Live running) {
        running.over = true;
        live.remove(running.channel(), running);
    }

    private static void end(Live running) {
        running.over = true;
        Disposable stream = running.stream;
        if (stream != null) {
            stream.dispose();
        }
    }

    /** Runs the turn's next step after {@code delayMs}, on a worker; at once on this thread (a worker's) when there is no delay. */
    private void later(Live running, long delayMs, Runnable action) {
        Runnable turnStep = guarded(running, action);
        if (delayMs <= 0) {
            turnStep.run();
        } else {
            timers.schedule(() -> workers.execute(turnStep), delayMs, TimeUnit.MILLISECONDS);
        }
    }

    private static String encode(TurnOutcome outcome) {
        return JSON.writeValueAsString(switch (outcome) {
            case Replied replied -> Map.of("kind", "replied", "text", replied.text());
            case NeedsInput input -> Map.of("kind", "input", "text", input.text());
            case NeedsAuth auth -> Map.of("kind", "auth", "text", auth.text());
            case AgentFailed failed -> Map.of("kind", "failed", "text", failed.text(), "message", failed.message());
            case Rejected rejected -> Map.of("kind", "rejected", "reason", rejected.reason());
            case Unavailable unavailable -> Map.of("kind", "unavailable", "code", unavailable.code(), "message", unavailable.message());
        });
    }

    private static TurnOutcome decode(String json) {
        Map<?, ?> stored = JSON.readValue(json, Map.class);
        return switch ((String) stored.get("kind")) {
            case "replied" -> new Replied((String) stored.get("text"));
            case "input" -> new NeedsInput((String) stored.get("text"));
            case "auth" -> new NeedsAuth((String) stored.get("text"));
            case "failed" -> new AgentFailed((String) stored.get("text"), (String) stored.get("message"));
            case "rejected" -> new Rejected((String) stored.get("reason"));
            default -> new Unavailable((String) stored.get("code"), (String) stored.get("message"));
        };
    }

    private static String textOf(TurnOutcome outcome) {
        return switch (outcome) {
            case Replied replied -> replied.text();
            case NeedsInput input -> input.text();
            case NeedsAuth auth -> auth.text();
            case AgentFailed failed -> failed.text();
            case Rejected rejected -> rejected.reason();
            case Unavailable unavailable -> unavailable.message();
        };
    }

    /** How far this node's clock is set from the system's, in microseconds ({@link #CLAIM_INSTANT}): zero on the system clock. */
    private long clockOffsetMicros() {
        return Clock.systemUTC().equals(clock) ? 0 : ChronoUnit.MICROS.between(Instant.now(), clock.instant());
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }
}

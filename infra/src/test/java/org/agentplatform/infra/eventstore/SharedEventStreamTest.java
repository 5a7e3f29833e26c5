package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.support.PlatformTest;
import org.agentplatform.kernel.GlobalIndex;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The shared stream against the real event store, with the gaps concurrent commits make: an event that
 * commits after a later one (a gap that fills), one that never commits (a rolled back append), and
 * streams that start before, during and long after the appends. Every stream gets every committed event
 * exactly once, and its tokens grow as the storage engine's own would.
 */
@PlatformTest
class SharedEventStreamTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** The shipped pacing ({@code agent-platform.events.read-pacing}). */
    private static final Duration PACING = Duration.ofMillis(10);

    @Autowired
    EventStorageEngine storage;

    @Autowired
    EventStore eventStore;

    @Autowired
    TransactionManager transactions;

    @Autowired
    JdbcTemplate jdbc;

    private SharedEventStream shared;
    private final ExecutorService appenders = Executors.newFixedThreadPool(4);

    @BeforeEach
    void aSharedStream() {
        shared = new SharedEventStream(eventStore, storage, 64, new GapRule(10_000, Duration.ofMinutes(1)), Duration.ofMillis(50), PACING, () -> { }, new BackgroundPriority(0));
    }

    @AfterEach
    void stop() {
        shared.close();
        appenders.shutdownNow();
    }

    @Test
    void anEventPublishedOutsideAnAggregateIsStillTrackedWithItsIndex() {
        GapAwareTrackingToken token = GapAwareTrackingToken.newInstance(41, java.util.List.of());
        TrackedEventMessage<?> plain = new org.axonframework.eventhandling.GenericTrackedEventMessage<>(token,
                org.axonframework.eventhandling.GenericEventMessage.asEventMessage("an audit record"));
        TrackedEventMessage<?> indexed = SharedEventStream.indexed(plain, 41);
        assertThat(indexed.trackingToken()).isEqualTo(token);
        assertThat(indexed.getMetaData()).containsEntry(GlobalIndex.KEY, 41L);
        assertThat(indexed.getPayload()).isEqualTo("an audit record");
    }

    @Test
    void everyStreamGetsEveryCommittedEventOnceWhateverTheOrderOfCommits() throws Exception {
        TrackingToken start = shared.createHeadToken();
        String aggregate = UUID.randomUUID().toString();
        Reader early = new Reader(shared.openStream(start), aggregate);
        List<String> committed = new ArrayList<>();

        committed.addAll(append(aggregate + "-a", 5));
        // a gap that fills: the slow append takes its index first and commits after a later one
        CountDownLatch inserted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<String> slow = appenders.submit(() -> {
            Transaction transaction = transactions.startTransaction();
            String id = appendOne(aggregate + "-slow", 0);
            inserted.countDown();
            release.await(10, TimeUnit.SECONDS);
            transaction.commit();
            return id;
        });
        inserted.await(10, TimeUnit.SECONDS);
        committed.addAll(append(aggregate + "-b", 5));
        shared.wake();
        early.awaitAll(committed);
        Reader midway = new Reader(shared.openStream(early.token()), aggregate);
        release.countDown();
        committed.add(slow.get(10, TimeUnit.SECONDS));
        // a gap that never fills: an append rolled back
        Transaction rolledBack = transactions.startTransaction();
        appendOne(aggregate + "-never", 0);
        rolledBack.rollback();
        committed.addAll(append(aggregate + "-c", 150));
        shared.wake();

        Reader late = new Reader(shared.openStream(start), aggregate);
        early.awaitAll(committed);
        late.awaitAll(committed);
        List<String> afterMidway = committed.subList(10, committed.size());
        midway.awaitAll(afterMidway);

        for (Reader reader : List.of(early, late)) {
            assertThat(reader.identifiers()).as("each committed event exactly once").doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(committed);
            reader.assertTokensGrow();
        }
        assertThat(midway.identifiers()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(afterMidway);
        midway.assertTokensGrow();
        // the same events the storage engine gives a stream of its own from the same start
        assertThat(early.identifiers()).containsExactlyInAnyOrderElementsOf(engineRead(start, aggregate));
        // each event carries its own global index, also the one that committed late
        Map<String, Long> stored = new LinkedHashMap<>();
        jdbc.query("SELECT event_identifier, global_index FROM domain_event_entry WHERE aggregate_identifier LIKE ?",
                row -> {
                    stored.put(row.getString(1), row.getLong(2));
                }, aggregate + "%");
        for (Reader reader : List.of(early, midway, late)) {
            assertThat(reader.indexes()).isEqualTo(Map.copyOf(reader.indexes()).entrySet().stream()
                    .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, entry -> stored.get(entry.getKey()))));
        }
    }

    @Test
    void eventsOfATypeTheProcessorHasNoHandlerForArePassedOverWhileItsTokenStillReachesTheHead() throws Exception {
        TrackingToken start = shared.createHeadToken();
        String aggregate = UUID.randomUUID().toString();
        BlockingStream<TrackedEventMessage<?>> live = shared.openStream(start);
        append(aggregate + "-first", 1);
        shared.wake();
        assertThat(live.hasNextAvailable(30, TimeUnit.SECONDS)).isTrue();
        // what a coordinator does with an event none of its handlers takes
        live.skipMessagesWithPayloadTypeOf(live.nextAvailable());

        List<String> wanted = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            append(aggregate + "-probes-" + round, 20);
            wanted.add(transactions.fetchInTransaction(() -> appendOne(aggregate + "-wanted", wanted.size(), new Wanted(aggregate))));
        }
        append(aggregate + "-probes-last", 20);
        shared.wake();
        long head = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);

        for (BlockingStream<TrackedEventMessage<?>> stream : List.of(live, shared.openStream(start))) {
            List<String> received = new ArrayList<>();
            int passedOver = 0;
            long giveUp = System.nanoTime() + PATIENCE.toNanos();
            GapAwareTrackingToken last = null;
            while (last == null || last.getIndex() < head || !received.containsAll(wanted)) {
                assertThat(System.nanoTime()).as("the wanted events and a token at the head").isLessThan(giveUp);
                if (stream.hasNextAvailable(100, TimeUnit.MILLISECONDS)) {
                    TrackedEventMessage<?> event = stream.nextAvailable();
                    if (event.getPayload() instanceof Probed) {
                        stream.skipMessagesWithPayloadTypeOf(event);
                        passedOver++;
                    } else if (ofTest(event, aggregate)) {
                        received.add(event.getIdentifier());
                        assertThat(event.getMetaData()).containsKey(GlobalIndex.KEY);
                    }
                    last = (GapAwareTrackingToken) event.trackingToken();
                }
            }
            assertThat(received).containsExactlyElementsOf(wanted);
            // at most one skipped event a second is handed out, so the processor's token moves while it handles nothing
            assertThat(passedOver).as("of the 101 probes, handed out").isLessThan(10);
            stream.close();
        }
    }

    @Test
    void aStreamWhoseProcessorHandlesNoneOfTheTrafficStaysInTheWindowWithoutBeingWoken() throws Exception {
        BlockingStream<TrackedEventMessage<?>> idle = shared.openStream(shared.createHeadToken());
        idle.hasNextAvailable(100, TimeUnit.MILLISECONDS); // joins the window: the reader starts
        String aggregate = UUID.randomUUID().toString();
        append(aggregate + "-first", 1);
        shared.wake();
        assertThat(idle.hasNextAvailable(30, TimeUnit.SECONDS)).isTrue();
        idle.skipMessagesWithPayloadTypeOf(idle.nextAvailable());
        AtomicInteger woken = new AtomicInteger();
        idle.setOnAvailableCallback(woken::incrementAndGet);
        long readsBefore = shared.ownReads();

        // five windows of events it has no handler for, while its coordinator sleeps (it is not woken for them)
        for (int round = 0; round < 5; round++) {
            append(aggregate + "-probes-" + round, 64);
            shared.wake();
        }
        String wanted = transactions.fetchInTransaction(() -> appendOne(aggregate + "-wanted", 0, new Wanted(aggregate)));
        CompletableFuture<List<DomainEventMessage<?>>> read = new CompletableFuture<>();
        shared.watch(aggregate + "-wanted", read::complete);
        shared.wake();
        read.get(30, TimeUnit.SECONDS);
        assertThat(woken).as("woken for the wanted event (and at most a passed-over event a second)").hasPositiveValue();

        List<String> received = new ArrayList<>();
        long giveUp = System.nanoTime() + PATIENCE.toNanos();
        while (!received.contains(wanted)) {
            assertThat(System.nanoTime()).as("the wanted event").isLessThan(giveUp);
            if (idle.hasNextAvailable(100, TimeUnit.MILLISECONDS)) {
                received.add(idle.nextAvailable().getIdentifier());
            }
        }
        assertThat(shared.ownReads()).as("it never fell behind the window to read the store").isEqualTo(readsBefore);
        idle.close();
    }

    @Test
    void aWatchGetsAnAggregatesEventsAtOnceWhenTheWindowHoldsThemElseOnceTheReaderReadsThem() throws Exception {
        BlockingStream<TrackedEventMessage<?>> live = shared.openStream(shared.createHeadToken());
        live.hasNextAvailable(100, TimeUnit.MILLISECONDS); // joins the window: the reader starts
        String aggregate = UUID.randomUUID().toString();
        CompletableFuture<List<DomainEventMessage<?>>> waiting = new CompletableFuture<>();
        shared.watch(aggregate, waiting::complete);
        CompletableFuture<List<DomainEventMessage<?>>> stopped = new CompletableFuture<>();
        shared.watch(aggregate, stopped::complete).close();
        List<String> appended = transactions.fetchInTransaction(() -> List.of(appendOne(aggregate, 0), appendOne(aggregate, 1)));
        shared.wake();

        List<DomainEventMessage<?>> found = waiting.get(30, TimeUnit.SECONDS);
        assertThat(found).extracting(DomainEventMessage::getIdentifier).containsExactlyElementsOf(appended);
        assertThat(found).allSatisfy(event -> assertThat(event.getMetaData()).containsKey(GlobalIndex.KEY));
        CompletableFuture<List<DomainEventMessage<?>>> later = new CompletableFuture<>();
        shared.watch(aggregate, later::complete);
        assertThat(later).as("held already: answered at once").isCompletedWithValueMatching(events -> events.size() == 2);
        assertThat(shared.held(aggregate)).extracting(DomainEventMessage::getSequenceNumber).containsExactly(0L, 1L);
        assertThat(stopped).as("a closed watch is not told").isNotDone();
        assertThat(shared.held(UUID.randomUUID().toString())).isEmpty();
        live.close();
    }

    @Test
    void aBusyReaderReadsTheCommitsOfAPacingIntervalTogetherAndEveryEventStillArrives() throws Exception {
        // forty commits, each waking the reader: busy (six wakes within two intervals) from the sixth on, it reads once per 2 s
        SharedEventStream paced = new SharedEventStream(eventStore, storage, 64, new GapRule(10_000, Duration.ofMinutes(1)),
                Duration.ofMillis(50), Duration.ofSeconds(2), () -> { }, new BackgroundPriority(0));
        try {
            BlockingStream<TrackedEventMessage<?>> live = paced.openStream(paced.createHeadToken());
            live.hasNextAvailable(100, TimeUnit.MILLISECONDS); // joins the window: the reader starts
            String aggregate = UUID.randomUUID().toString();
            // the reader has read once (just now) before the forty: a reader that started late read them all in one read,
            // unpaced, and no read was put off
            List<String> first = append(aggregate + "-first", 1);
            paced.wake();
            new Reader(live, aggregate).awaitAll(first);
            AtomicInteger woken = new AtomicInteger();
            live.setOnAvailableCallback(woken::incrementAndGet);
            List<String> committed = new ArrayList<>();
            for (int commit = 0; commit < 40; commit++) {
                committed.addAll(append(aggregate + "-" + commit, 1));
                paced.wake();
            }
            Reader reader = new Reader(live, aggregate);
            reader.awaitAll(committed);

            assertThat(reader.identifiers()).containsExactlyElementsOf(committed);
            reader.assertTokensGrow();
            assertThat(paced.pacedReads()).as("reads put off").isPositive();
            assertThat(woken).as("the processor woken once per read that found events, not once per commit").hasValueLessThan(20);
            live.close();
        } finally {
            paced.close();
        }
    }

    private List<String> append(String aggregate, int count) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int sequence = 0; sequence < count; sequence++) {
            int at = sequence;
            ids.add(transactions.fetchInTransaction(() -> appendOne(aggregate, at)));
        }
        return ids;
    }

    private String appendOne(String aggregate, long sequence) {
        return appendOne(aggregate, sequence, new Probed(aggregate));
    }

    private String appendOne(String aggregate, long sequence, Object payload) {
        GenericDomainEventMessage<?> event = new GenericDomainEventMessage<>("Probe", aggregate, sequence, payload);
        storage.appendEvents(event);
        return event.getIdentifier();
    }

    private List<String> engineRead(TrackingToken start, String aggregate) {
        try (var events = storage.readEvents(start, false)) {
            return events.filter(event -> ofTest(event, aggregate)).map(TrackedEventMessage::getIdentifier).toList();
        }
    }

    private static boolean ofTest(TrackedEventMessage<?> event, String aggregate) {
        return event instanceof DomainEventMessage<?> domain && domain.getAggregateIdentifier().startsWith(aggregate);
    }

    record Probed(String aggregate) {
    }

    record Wanted(String aggregate) {
    }

    /** Drains one stream from a thread of its own, as a processor's coordinator does. */
    private static final class Reader {

        private final BlockingStream<TrackedEventMessage<?>> stream;
        private final String aggregate;
        private final Map<String, TrackingToken> seen = new LinkedHashMap<>();
        private final List<String> order = new ArrayList<>();
        private final List<TrackingToken> tokens = new ArrayList<>();
        private final Map<String, Long> indexes = new LinkedHashMap<>();
        private volatile TrackingToken token;

        Reader(BlockingStream<TrackedEventMessage<?>> stream, String aggregate) {
            this.stream = stream;
            this.aggregate = aggregate;
        }

        void awaitAll(List<String> identifiers) throws InterruptedException {
            Set<String> wanted = new HashSet<>(identifiers);
            long giveUp = System.nanoTime() + PATIENCE.toNanos();
            while (!order.containsAll(wanted)) {
                assertThat(System.nanoTime()).as("events still missing").isLessThan(giveUp);
                if (stream.hasNextAvailable(100, TimeUnit.MILLISECONDS)) {
                    TrackedEventMessage<?> event = stream.nextAvailable();
                    tokens.add(event.trackingToken());
                    token = event.trackingToken();
                    if (ofTest(event, aggregate)) {
                        order.add(event.getIdentifier());
                        seen.put(event.getIdentifier(), event.trackingToken());
                        indexes.put(event.getIdentifier(), (Long) event.getMetaData().get(GlobalIndex.KEY));
                    }
                }
            }
        }

        TrackingToken token() {
            return token;
        }

        Map<String, Long> indexes() {
            return indexes;
        }

        List<String> identifiers() {
            return List.copyOf(order);
        }

        /** Each token has seen all the previous one had (a processor's stored token never goes back). */
        void assertTokensGrow() {
            TrackingToken previous = null;
            for (TrackingToken next : tokens) {
                assertThat(next).isInstanceOf(GapAwareTrackingToken.class);
                if (previous != null) {
                    assertThat(next.covers(previous)).as("%s covers %s", next, previous).isTrue();
                }
                previous = next;
            }
        }
    }
}

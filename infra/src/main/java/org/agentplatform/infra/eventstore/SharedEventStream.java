package org.agentplatform.infra.eventstore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.kernel.FrameworkReplacement;
import org.agentplatform.kernel.GlobalIndex;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericTrackedEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.StreamableMessageSource;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event store as every streaming processor's source, read once per node. One reader thread follows
 * the store and keeps the newest events in a window in memory; each processor's stream takes its events
 * from that window and is told at once when new ones arrive, so a commit costs one read of the store, not
 * one per processor, and no processor polls. A stream that is behind the window (a replay, a processor
 * that was stopped, one that fell behind in a burst) reads the store on its own until it catches up, then
 * joins the window.
 * <p>
 * The window is a ring of {@code capacity} slots, each event in the slot of its position in the reader's
 * sequence; a stream remembers the position it is at, not the event, so a stream that stopped reading (a
 * processor whose handlers wait) holds nothing: the events it has not taken yet are overwritten as the reader
 * goes on, and it finds that out by the position of what it finds in the slot. The window's memory is bounded
 * by its capacity whatever the processors do, and an event leaves memory once {@code capacity} newer ones came.
 * <p>
 * Each stream keeps its own gap-aware token, advanced as the storage engine would advance it, so a
 * processor's stored token never claims an event it has not seen: the reader's tokens only tell a stream
 * which of its gaps can no longer be filled (the reader gave up on them too). A stream in step with the
 * reader (its token is the reader's before an event) takes the reader's token after it. Every event is handed on with
 * its own global index as metadata ({@link GlobalIndex}).
 * <p>
 * Besides the processors, a caller may {@linkplain #watch watch} for an aggregate's events: those the window holds, at
 * once or as soon as the reader reads one (a stream opened on a task created a moment ago starts from them).
 * <p>
 * A busy reader is paced: while its last {@value #BUSY_COMMITS} wakes (commits) came within two pacing intervals, it
 * reads at most once per interval, taking every commit of the interval in one read. Each read wakes each processor at most
 * once, so its batch (one transaction, one token update, and a hand-off, a notification or a lookup for the batch) carries
 * the commits of an interval rather than one or two: one by one, tasks arriving at a few hundred a second cost half as
 * many statements again as the same tasks arriving together. A node at rest, or one caller's requests one after the
 * other, is read at once; a busy node hands each event on at most an interval later.
 */
@FrameworkReplacement("Axon: the event store as each streaming processor's own StreamableMessageSource")
final class SharedEventStream implements StreamableMessageSource<TrackedEventMessage<?>>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SharedEventStream.class);
    /** How long a stream passes over events its processor has no handler for before it hands one out anyway. */
    static final Duration PASSED_OVER_HAND_OUT = Duration.ofSeconds(1);
    /** How many of the latest wakes tell whether the reader is busy (and so paced). */
    static final int BUSY_COMMITS = 6;

    private final EventStore eventStore;
    private final EventStorageEngine storage;
    private final int capacity;
    private final GapRule gaps;
    private final Duration otherNodesTick;
    private final long pacingNanos;
    /** When ({@link System#nanoTime}) the latest {@value #BUSY_COMMITS} wakes came, the oldest overwritten; under {@link #lock}. */
    private final long[] wakes = new long[BUSY_COMMITS];
    private long woken;
    /** When the reader's last read began; the reader's own. */
    private long lastRead;
    /** How many reads the reader put off to pace itself. */
    private final LongAdder pacedReads = new LongAdder();
    private final Set<Stream> streams = ConcurrentHashMap.newKeySet();
    /** How many times a stream began reading the store on its own. */
    private final LongAdder ownReads = new LongAdder();
    /** Callers waiting for an aggregate's events, by aggregate id; each list is replaced, never changed. */
    private final Map<String, List<Watch>> watches = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition arrived = lock.newCondition();
    private final Thread reader;
    private volatile boolean dirty;
    private volatile boolean closed;
    /** The window: the node at position {@code p} is in slot {@code p % capacity} until the one {@code capacity} later replaces it. */
    private final AtomicReferenceArray<Node> ring;
    /** The newest node (a sentinel carrying the reader's starting token first); null before the first join. */
    private volatile Node newest;
    /**
     * The position of the newest node of the reader's last whole read: watches see the window up to it, so they see a
     * commit's events together (a read appends them one by one, and its batches may part them).
     */
    private volatile long published;

    /**
     * One event as the reader saw it, at {@code sequence} (its position in the reader's order): {@code index} is its
     * global index, {@code token} the reader's token after it (whose index is the highest seen so far: an event that
     * filled a gap has a lower one). The event carries its index as metadata already, so the streams only give it their
     * own token: its metadata is merged once, not copied once per processor.
     */
    private static final class Node {

        private final long sequence;
        private final long index;
        private final TrackedEventMessage<?> event;
        private final GapAwareTrackingToken token;

        Node(long sequence, long index, TrackedEventMessage<?> event, GapAwareTrackingToken token) {
            this.sequence = sequence;
            this.index = index;
            this.event = event == null ? null : indexed(event, index);
            this.token = token;
        }
    }

    /**
     * @param otherNodesTick how often the store is read when nothing woke the reader (other nodes' commits that no
     *                       notification announced)
     * @param pacing         the shortest time between two reads of a busy reader; zero reads at every wake
     * @param localCommit    told after each commit of this node (after the reader is woken)
     * @param background     the reader's priority
     */
    SharedEventStream(EventStore eventStore, EventStorageEngine storage, int capacity, GapRule gaps,
            Duration otherNodesTick, Duration pacing, Runnable localCommit, BackgroundPriority background) {
        this.eventStore = eventStore;
        this.storage = storage;
        this.capacity = capacity;
        this.gaps = gaps;
        this.otherNodesTick = otherNodesTick;
        this.pacingNanos = pacing.toNanos();
        this.lastRead = System.nanoTime() - pacingNanos;
        this.ring = new AtomicReferenceArray<>(capacity);
        Runnable committed = () -> {
            wake();
            localCommit.run();
        };
        eventStore.subscribe(events -> {
            if (CurrentUnitOfWork.isStarted()) {
                CurrentUnitOfWork.get().root().afterCommit(unitOfWork -> committed.run());
            } else {
                committed.run();
            }
        });
        this.reader = background.thread("event-store-reader", this::follow);
    }

    /** How many times a stream began reading the store on its own (behind the window, or before joining it). */
    long ownReads() {
        return ownReads.sum();
    }

    /** How many reads the reader put off because it was busy. */
    long pacedReads() {
        return pacedReads.sum();
    }

    /** Something may have been committed: read the store. */
    void wake() {
        dirty = true;
        lock.lock();
        try {
            wakes[(int) (woken++ % BUSY_COMMITS)] = System.nanoTime();
            work.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void follow() {
        while (!closed) {
            try {
                awaitWork();
                pace();
                dirty = false;
                long before = newest.sequence;
                if (read() > 0) {
                    published = newest.sequence;
                    notifyWatches(before + 1);
                    lock.lock();
                    try {
                        arrived.signalAll();
                    } finally {
                        lock.unlock();
                    }
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException failure) {
                if (!closed) {
                    log.atWarn().setCause(failure).log("reading the event store failed; trying again");
                    pause();
                }
            }
        }
    }

    private void awaitWork() throws InterruptedException {
        lock.lock();
        try {
            if (!dirty) {
                work.await(otherNodesTick.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits, when the reader is busy, until a pacing interval has passed since its last read began (the commits of the
     * meantime are read together); then notes this read's start.
     */
    private void pace() throws InterruptedException {
        long now = System.nanoTime();
        long wait = lastRead + pacingNanos - now;
        if (pacingNanos > 0 && wait > 0 && busy(now)) {
            pacedReads.increment();
            TimeUnit.NANOSECONDS.sleep(wait);
            now = System.nanoTime();
        }
        lastRead = now;
    }

    /** Whether the latest {@value #BUSY_COMMITS} wakes came within two pacing intervals of {@code now}. */
    private boolean busy(long now) {
        lock.lock();
        try {
            return woken >= BUSY_COMMITS && now - wakes[(int) (woken % BUSY_COMMITS)] < 2 * pacingNanos;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends what the store holds after the newest node, telling the streams of each quarter of the window as it is
     * appended (a read longer than the window would otherwise leave every stream behind it); answers how many events.
     */
    private int read() {
        Node last = newest;
        if (last == null) {
            return 0;
        }
        int read = 0;
        long untold = last.sequence + 1;
        try (java.util.stream.Stream<? extends TrackedEventMessage<?>> events = storage.readEvents(last.token, false)) {
            Iterator<? extends TrackedEventMessage<?>> iterator = events.iterator();
            while (iterator.hasNext()) {
                TrackedEventMessage<?> event = iterator.next();
                GapAwareTrackingToken after = (GapAwareTrackingToken) event.trackingToken();
                Node node = new Node(last.sequence + 1, indexOf(last.token, after), event, after);
                ring.set(slot(node.sequence), node);
                last = node;
                newest = node;
                read++;
                if (node.sequence - untold + 1 >= Math.max(1, capacity / 4)) {
                    tellStreams(untold, node.sequence);
                    untold = node.sequence + 1;
                }
            }
        } finally {
            if (untold <= last.sequence) {
                tellStreams(untold, last.sequence);
            }
        }
        return read;
    }

    private void tellStreams(long first, long last) {
        for (Stream stream : streams) {
            stream.notifyAvailable(first, last);
        }
    }

    /**
     * Hands {@code found} the events of {@code aggregate} the window holds (in the aggregate's order), once: at once when it
     * holds some, else when the reader reads one. Closing the answer stops the watch.
     */
    AutoCloseable watch(String aggregate, Consumer<List<DomainEventMessage<?>>> found) {
        Watch watch = new Watch(aggregate, found);
        watches.compute(aggregate, (key, waiting) -> {
            List<Watch> more = waiting == null ? new ArrayList<>(1) : new ArrayList<>(waiting);
            more.add(watch);
            return List.copyOf(more);
        });
        // after registering: an event the reader appends meanwhile is seen here or by the reader's call
        watch.fire();
        return watch;
    }

    /** The events of {@code aggregate} the window holds as of the reader's last whole read, in the aggregate's order. */
    List<DomainEventMessage<?>> held(String aggregate) {
        long head = published;
        List<DomainEventMessage<?>> found = new ArrayList<>(2);
        for (long sequence = Math.max(1, head - capacity + 1); sequence <= head; sequence++) {
            Node node = at(sequence);
            if (node != null && node.event instanceof DomainEventMessage<?> event && aggregate.equals(event.getAggregateIdentifier())) {
                found.add(event);
            }
        }
        found.sort(Comparator.comparingLong(DomainEventMessage::getSequenceNumber));
        return found;
    }

    /** Tells the watches of the aggregates of the events from position {@code first} on. */
    private void notifyWatches(long first) {
        if (watches.isEmpty()) {
            return;
        }
        long head = published;
        Set<String> seen = new HashSet<>();
        for (long sequence = Math.max(first, head - capacity + 1); sequence <= head; sequence++) {
            Node node = at(sequence);
            if (node != null && node.event instanceof DomainEventMessage<?> event && watches.containsKey(event.getAggregateIdentifier())) {
                seen.add(event.getAggregateIdentifier());
            }
        }
        for (String aggregate : seen) {
            for (Watch watch : watches.getOrDefault(aggregate, List.of())) {
                try {
                    watch.fire();
                } catch (RuntimeException failure) {
                    // a watcher's failure is its own: the reader goes on for the processors
                    log.atWarn().addKeyValue("aggregate", aggregate).setCause(failure).log("a watch of recent events failed");
                }
            }
        }
    }

    /** A caller waiting for an aggregate's events. */
    private final class Watch implements AutoCloseable {

        private final String aggregate;
        private final Consumer<List<DomainEventMessage<?>>> found;
        private final AtomicBoolean done = new AtomicBoolean();

        Watch(String aggregate, Consumer<List<DomainEventMessage<?>>> found) {
            this.aggregate = aggregate;
            this.found = found;
        }

        void fire() {
            if (done.get()) {
                return;
            }
            List<DomainEventMessage<?>> events = held(aggregate);
            if (!events.isEmpty() && done.compareAndSet(false, true)) {
                close();
                found.accept(events);
            }
        }

        @Override
        public void close() {
            watches.computeIfPresent(aggregate, (key, waiting) -> {
                List<Watch> left = new ArrayList<>(waiting);
                left.remove(this);
                return left.isEmpty() ? null : List.copyOf(left);
            });
        }
    }

    private void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private int slot(long sequence) {
        return (int) (sequence % capacity);
    }

    /** The node at {@code sequence}, or null when the window no longer holds it (a newer one took its slot). */
    private Node at(long sequence) {
        Node node = ring.get(slot(sequence));
        return node != null && node.sequence == sequence ? node : null;
    }

    /** Starts the reader at {@code token}, the first stream to join. */
    private void startAt(GapAwareTrackingToken token) {
        lock.lock();
        try {
            if (newest == null) {
                Node sentinel = new Node(0, -1, null, token);
                ring.set(0, sentinel);
                newest = sentinel;
                reader.start();
                dirty = true;
                work.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public BlockingStream<TrackedEventMessage<?>> openStream(TrackingToken trackingToken) {
        if (trackingToken != null && !(trackingToken instanceof GapAwareTrackingToken)) {
            throw new IllegalArgumentException("Streams start at a gap-aware token of the JDBC event store, not " + trackingToken);
        }
        Stream stream = new Stream((GapAwareTrackingToken) trackingToken);
        streams.add(stream);
        return stream;
    }

    @Override
    public TrackingToken createTailToken() {
        return eventStore.createTailToken();
    }

    @Override
    public TrackingToken createHeadToken() {
        return eventStore.createHeadToken();
    }

    @Override
    public TrackingToken createTokenAt(Instant dateTime) {
        return eventStore.createTokenAt(dateTime);
    }

    @Override
    public void close() {
        closed = true;
        wake();
        reader.interrupt();
    }

    /**
     * One processor's stream. It reads the store itself while it is behind the window; once the store has
     * nothing more for it, it joins the window at the newest node whose events it has all seen, and from
     * then on takes the events it has not seen from the window.
     */
    private final class Stream implements BlockingStream<TrackedEventMessage<?>> {

        private GapAwareTrackingToken token;
        private java.util.stream.Stream<? extends TrackedEventMessage<?>> own;
        private Iterator<? extends TrackedEventMessage<?>> ownEvents;
        /** The position in the window of the last event this stream took or passed, -1 while it reads the store. */
        private long at = -1;
        /** The reader's token after the event at {@code at}. */
        private GapAwareTrackingToken atToken;
        private TrackedEventMessage<?> peeked;
        private volatile Runnable onAvailable;
        /** Payload types the processor has no handler for, as its coordinator reported them. */
        private final Set<Class<?>> skipped = ConcurrentHashMap.newKeySet();
        /** The newest event passed over since the last one handed out (the token is the one after it), or null. */
        private TrackedEventMessage<?> passedOver;
        /** Its global index, to add as metadata when it is handed out; -1 when it carries it already. */
        private long passedOverIndex;
        /** When this stream last handed out an event ({@link System#nanoTime()}). */
        private long handedOutAt = System.nanoTime();
        /**
         * Held by whoever moves this stream: its processor's coordinator, or the reader passing it over events its
         * processor has no handler for.
         */
        private final ReentrantLock guard = new ReentrantLock();

        Stream(GapAwareTrackingToken token) {
            this.token = token;
        }

        /**
         * New events at positions {@code first} to {@code last}: the processor is woken when one of them is of a type it
         * handles. When none is, and the stream is in the window up to them, the reader passes it over them here, so a
         * processor that handles none of the traffic stays in the window instead of being left behind it (it is woken
         * only for what it handles) and reading the store on its own; it is woken when a passed-over event is due.
         */
        void notifyAvailable(long first, long last) {
            Runnable callback = onAvailable;
            if (callback == null) {
                return;
            }
            for (long sequence = Math.max(first, last - capacity + 1); sequence <= last; sequence++) {
                Node node = at(sequence);
                if (node == null || handles(node.event)) {
                    callback.run();
                    return;
                }
            }
            if (passOverUpTo(first, last)) {
                callback.run();
            }
        }

        /**
         * Moves the stream past the window's events up to {@code last}, none of which it handles, if it is in the window
         * at {@code first - 1} or later and its coordinator is not moving it; answers whether a passed-over event is due.
         */
        private boolean passOverUpTo(long first, long last) {
            if (!guard.tryLock()) {
                return false;
            }
            try {
                if (at < first - 1 || peeked != null) {
                    return false;
                }
                for (long sequence = at + 1; sequence <= last; sequence++) {
                    Node node = at(sequence);
                    if (node == null) {
                        return false;
                    }
                    moveTo(sequence, node);
                }
                return passedOverIsDue();
            } finally {
                guard.unlock();
            }
        }

        /**
         * The processor has no handler for this payload type: its events are passed over here instead of being
         * queued for each of its segments and handed to a worker thread only to move the token. The token still
         * moves past them; one such event is handed out when nothing was for {@link SharedEventStream#PASSED_OVER_HAND_OUT},
         * so the processor stores its token and its lag reads true while it handles none of the traffic.
         */
        @Override
        public void skipMessagesWithPayloadTypeOf(TrackedEventMessage<?> ignored) {
            skipped.add(ignored.getPayloadType());
        }

        private boolean handles(TrackedEventMessage<?> event) {
            return skipped.isEmpty() || !skipped.contains(event.getPayloadType());
        }

        private void passOver(TrackedEventMessage<?> event, long index) {
            passedOver = event;
            passedOverIndex = index;
        }

        private boolean passedOverIsDue() {
            return passedOver != null && System.nanoTime() - handedOutAt >= PASSED_OVER_HAND_OUT.toNanos();
        }

        private TrackedEventMessage<?> handOut(TrackedEventMessage<?> event) {
            handedOutAt = System.nanoTime();
            passedOver = null;
            return event;
        }

        private TrackedEventMessage<?> handOutPassedOver() {
            TrackedEventMessage<?> event = passedOverIndex < 0 ? passedOver : indexed(passedOver, passedOverIndex);
            return handOut(event.withTrackingToken(token));
        }

        @Override
        public Optional<TrackedEventMessage<?>> peek() {
            return Optional.ofNullable(guardedNext());
        }

        @Override
        public boolean hasNextAvailable(int timeout, TimeUnit unit) throws InterruptedException {
            long giveUp = System.nanoTime() + unit.toNanos(timeout);
            while (guardedNext() == null) {
                long left = giveUp - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.lock();
                try {
                    arrived.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
                } finally {
                    lock.unlock();
                }
            }
            return true;
        }

        @Override
        public TrackedEventMessage<?> nextAvailable() throws InterruptedException {
            while (!hasNextAvailable(1, TimeUnit.SECONDS)) {
                if (closed) {
                    throw new InterruptedException("The event stream is closed");
                }
            }
            guard.lock();
            try {
                TrackedEventMessage<?> event = peeked;
                peeked = null;
                return event;
            } finally {
                guard.unlock();
            }
        }

        @Override
        public boolean setOnAvailableCallback(Runnable callback) {
            onAvailable = callback;
            return true;
        }

        @Override
        public void close() {
            streams.remove(this);
            guard.lock();
            try {
                closeOwn();
                leaveWindow();
            } finally {
                guard.unlock();
            }
        }

        private TrackedEventMessage<?> guardedNext() {
            guard.lock();
            try {
                return next();
            } finally {
                guard.unlock();
            }
        }

        /** The next event this stream has not seen, or null for now. */
        private TrackedEventMessage<?> next() {
            if (peeked == null) {
                peeked = at >= 0 ? fromWindow() : fromStore();
                if (peeked == null && passedOverIsDue()) {
                    peeked = handOutPassedOver();
                }
            }
            return peeked;
        }

        private TrackedEventMessage<?> fromWindow() {
            long head = newest.sequence;
            for (long sequence = at + 1; sequence <= head; sequence++) {
                Node node = at(sequence);
                if (node == null) {
                    // so far behind that the window no longer holds its next event: read the store from its token on
                    leaveWindow();
                    return fromStore();
                }
                if (moveTo(sequence, node)) {
                    return handOut(node.event.withTrackingToken(token));
                }
            }
            return null;
        }

        /** Moves this stream to the window's node at {@code sequence}; answers whether its event is one to hand out. */
        private boolean moveTo(long sequence, Node node) {
            GapAwareTrackingToken previous = atToken;
            at = sequence;
            atToken = node.token;
            if (seen(node.index)) {
                return false;
            }
            // in step with the reader (the usual case), this stream's next token is the reader's own
            token = token != null && token.equals(previous) ? node.token : advanced(node, node.index);
            if (handles(node.event)) {
                return true;
            }
            passOver(node.event, -1);
            return false;
        }

        private void leaveWindow() {
            at = -1;
            atToken = null;
        }

        private TrackedEventMessage<?> fromStore() {
            if (ownEvents == null) {
                ownReads.increment();
                own = storage.readEvents(token, false);
                ownEvents = own.iterator();
            }
            while (ownEvents.hasNext()) {
                TrackedEventMessage<?> event = ownEvents.next();
                GapAwareTrackingToken before = token;
                token = (GapAwareTrackingToken) event.trackingToken();
                long index = indexOf(before, token);
                if (handles(event)) {
                    return handOut(indexed(event, index));
                }
                passOver(event, index);
                if (passedOverIsDue()) {
                    return handOutPassedOver();
                }
            }
            closeOwn();
            return joinWindow() ? fromWindow() : null;
        }

        /**
         * Joins the window at its newest node whose events this stream has all seen, if it holds one (else the stream goes
         * on reading the store); starts the reader at this stream's token if it is the first.
         */
        private boolean joinWindow() {
            if (newest == null) {
                startAt(token);
            }
            long head = newest.sequence;
            for (long sequence = Math.max(0, head - capacity + 1); sequence <= head; sequence++) {
                Node node = at(sequence);
                if (node != null && covers(token, node.token)) {
                    at = sequence;
                    atToken = node.token;
                }
            }
            return at >= 0;
        }

        private boolean seen(long index) {
            return token != null && index <= token.getIndex() && !token.getGaps().contains(index);
        }

        /**
         * This stream's token after the event at {@code index}, as the storage engine would have advanced it,
         * keeping only the gaps the reader still waits for.
         */
        private GapAwareTrackingToken advanced(Node node, long index) {
            if (token == null) {
                return node.token;
            }
            GapAwareTrackingToken next = gaps.advance(token, index, node.event.getTimestamp());
            SortedSet<Long> open = next.getGaps();
            if (open.isEmpty()) {
                return next;
            }
            SortedSet<Long> kept = new TreeSet<>();
            for (long gap : open) {
                if (gap > node.token.getIndex() || node.token.getGaps().contains(gap)) {
                    kept.add(gap);
                }
            }
            return kept.size() == open.size() ? next : GapAwareTrackingToken.newInstance(next.getIndex(), kept);
        }

        private void closeOwn() {
            if (own != null) {
                own.close();
                own = null;
                ownEvents = null;
            }
        }
    }

    /**
     * The global index of the event that took a token from {@code before} to {@code after}: the new highest
     * index, or else the gap it filled (the highest gap that went: the others went because they got too old).
     */
    static long indexOf(GapAwareTrackingToken before, GapAwareTrackingToken after) {
        if (before == null || after.getIndex() > before.getIndex()) {
            return after.getIndex();
        }
        long filled = -1;
        for (long gap : before.getGaps()) {
            if (!after.getGaps().contains(gap)) {
                filled = gap;
            }
        }
        if (filled < 0) {
            throw new IllegalStateException("An event between " + before + " and " + after + " that is neither new nor a filled gap");
        }
        return filled;
    }

    /**
     * The event with its global index as metadata. A tracked domain event stays one; an event published outside
     * an aggregate (a plain tracked event, whose {@code andMetaData} drops the tracking token) is tracked again.
     */
    static TrackedEventMessage<?> indexed(TrackedEventMessage<?> event, long index) {
        EventMessage<?> withIndex = event.andMetaData(Map.of(GlobalIndex.KEY, index));
        return withIndex instanceof TrackedEventMessage<?> tracked ? tracked
                : new GenericTrackedEventMessage<>(event.trackingToken(), withIndex);
    }

    /** Whether {@code mine} has seen every event {@code theirs} has seen (a null token has seen nothing). */
    private static boolean covers(GapAwareTrackingToken mine, GapAwareTrackingToken theirs) {
        if (theirs == null) {
            return true;
        }
        return mine != null && mine.covers(theirs);
    }
}

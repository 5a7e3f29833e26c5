package org.agentplatform.infra.axon;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.agentplatform.kernel.GlobalIndex;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericEventMessage;
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
 * that was stopped) reads the store on its own until it catches up, then joins the window.
 * <p>
 * The window holds at most {@code capacity} events, and only those its slowest stream has not passed yet, plus a
 * slack of an eighth of that for the streams about to join: under load an event then leaves memory within a fraction of
 * a second, before the collector would copy it. A node that leaves the window is unlinked from the next: once the
 * collector has moved a node to the old generation, a link from it would keep every later node alive through the young
 * collections, dead or not, until the old generation is collected, and the whole stream of events would be copied
 * again and again (it was: the bulk of what each young collection copied). A stream left on an unlinked node reads the
 * store on its own, as one behind the window does. A stream whose processor handles none of the new events is woken once
 * it is the slack behind, so it passes over them and does not hold the window back.
 * <p>
 * Each stream keeps its own gap-aware token, advanced as the storage engine would advance it, so a
 * processor's stored token never claims an event it has not seen: the reader's tokens only tell a stream
 * which of its gaps can no longer be filled (the reader gave up on them too). A stream in step with the
 * reader (its token is the reader's before an event) takes the reader's token after it. Every event is handed on with
 * its own global index as metadata ({@link GlobalIndex}).
 */
final class SharedEventStream implements StreamableMessageSource<TrackedEventMessage<?>>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SharedEventStream.class);
    /** How long a stream passes over events its processor has no handler for before it hands one out anyway. */
    static final Duration PASSED_OVER_HAND_OUT = Duration.ofSeconds(1);

    private final EventStore eventStore;
    private final EventStorageEngine storage;
    private final int capacity;
    private final int slack;
    private final int maxGapOffset;
    private final Duration gapTimeout;
    private final Duration otherNodesTick;
    private final Set<Stream> streams = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition arrived = lock.newCondition();
    private final Thread reader;
    private volatile boolean dirty;
    private volatile boolean closed;
    /** The oldest node still in the window (a sentinel carrying the reader's starting token first); null before the first join. */
    private volatile Node oldest;
    private volatile Node newest;

    /**
     * One event as the reader saw it: {@code index} is its global index, {@code token} the reader's token
     * after it (whose index is the highest seen so far: an event that filled a gap has a lower one). The event
     * carries its index as metadata already, so the streams only give it their own token: its metadata is merged
     * once, not copied once per processor.
     */
    private static final class Node {

        private final long sequence;
        private final long index;
        private final TrackedEventMessage<?> event;
        private final GapAwareTrackingToken token;
        private volatile Node next;
        /** Out of the window; set before {@link #next} is cleared. */
        private volatile boolean dropped;

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
     * @param localCommit    told after each commit of this node (after the reader is woken)
     */
    SharedEventStream(EventStore eventStore, EventStorageEngine storage, int capacity, int maxGapOffset, Duration gapTimeout,
            Duration otherNodesTick, Runnable localCommit) {
        this.eventStore = eventStore;
        this.storage = storage;
        this.capacity = capacity;
        this.slack = Math.max(1, capacity / 8);
        this.maxGapOffset = maxGapOffset;
        this.gapTimeout = gapTimeout;
        this.otherNodesTick = otherNodesTick;
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
        this.reader = Thread.ofPlatform().name("event-store-reader").daemon().unstarted(this::follow);
    }

    /** Something may have been committed: read the store. */
    void wake() {
        dirty = true;
        lock.lock();
        try {
            work.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void follow() {
        while (!closed) {
            try {
                awaitWork();
                dirty = false;
                Node first = read();
                if (first != null) {
                    streams.forEach(stream -> stream.notifyAvailable(first));
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
     * Appends what the store holds after the newest node; answers the first node appended (taken before the window
     * lets go of anything: a large read can push it out at once), or null when the store had nothing new.
     */
    private Node read() {
        Node last = newest;
        if (last == null) {
            return null;
        }
        Node first = null;
        try (java.util.stream.Stream<? extends TrackedEventMessage<?>> events = storage.readEvents(last.token, false)) {
            Iterator<? extends TrackedEventMessage<?>> iterator = events.iterator();
            while (iterator.hasNext()) {
                TrackedEventMessage<?> event = iterator.next();
                GapAwareTrackingToken after = (GapAwareTrackingToken) event.trackingToken();
                Node node = new Node(last.sequence + 1, indexOf(last.token, after), event, after);
                last.next = node;
                last = node;
                newest = node;
                if (first == null) {
                    first = node;
                }
            }
        }
        if (first != null) {
            drop(Math.max(last.sequence - capacity, Math.min(slowestJoined(), last.sequence) - slack));
        }
        return first;
    }

    /** Lets the nodes before {@code keepFrom} out of the window, unlinked from the ones after them. */
    private void drop(long keepFrom) {
        Node gone = oldest;
        Node first = gone;
        while (first.sequence < keepFrom) {
            first = first.next;
        }
        oldest = first;
        while (gone != first) {
            Node next = gone.next;
            gone.dropped = true;
            gone.next = null;
            gone = next;
        }
    }

    /** The position of the window's slowest stream, or {@link Long#MAX_VALUE} when no stream takes from the window. */
    private long slowestJoined() {
        long slowest = Long.MAX_VALUE;
        for (Stream stream : streams) {
            Node at = stream.at;
            if (at != null) {
                slowest = Math.min(slowest, at.sequence);
            }
        }
        return slowest;
    }

    /** How many events the window holds now. */
    long held() {
        Node first = oldest;
        return first == null ? 0 : newest.sequence - first.sequence;
    }

    private void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the reader at {@code token}, the first stream to join; answers the window's first node. */
    private Node startAt(GapAwareTrackingToken token) {
        lock.lock();
        try {
            if (oldest == null) {
                Node sentinel = new Node(0, -1, null, token);
                oldest = sentinel;
                newest = sentinel;
                reader.start();
                dirty = true;
                work.signalAll();
            }
            return oldest;
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
        /** Where this stream is in the window (written by its processor's thread, read by the reader's), or null. */
        private volatile Node at;
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

        Stream(GapAwareTrackingToken token) {
            this.token = token;
        }

        /**
         * New events from {@code first} on: the processor is woken when one of them is of a type it handles, or when
         * it is the window's slack behind (to pass over what it does not handle and let the window go of it).
         */
        void notifyAvailable(Node first) {
            Runnable callback = onAvailable;
            if (callback == null) {
                return;
            }
            Node position = at;
            if (first.dropped || position != null && newest.sequence - position.sequence >= slack) {
                // the new events are partly out of the window already (a large read), or this stream holds the window back
                callback.run();
                return;
            }
            for (Node node = first; node != null; node = node.next) {
                if (handles(node.event)) {
                    callback.run();
                    return;
                }
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
            return Optional.ofNullable(next());
        }

        @Override
        public boolean hasNextAvailable(int timeout, TimeUnit unit) throws InterruptedException {
            long giveUp = System.nanoTime() + unit.toNanos(timeout);
            while (next() == null) {
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
            TrackedEventMessage<?> event = peeked;
            peeked = null;
            return event;
        }

        @Override
        public boolean setOnAvailableCallback(Runnable callback) {
            onAvailable = callback;
            return true;
        }

        @Override
        public void close() {
            streams.remove(this);
            closeOwn();
            at = null;
        }

        /** The next event this stream has not seen, or null for now. */
        private TrackedEventMessage<?> next() {
            if (peeked == null) {
                peeked = at != null ? fromWindow() : fromStore();
                if (peeked == null && passedOverIsDue()) {
                    peeked = handOutPassedOver();
                }
            }
            return peeked;
        }

        private TrackedEventMessage<?> fromWindow() {
            if (at.dropped || newest.sequence - at.sequence > capacity) {
                // the window no longer holds its next events: read them from the store
                at = null;
                return fromStore();
            }
            for (Node node = at.next; node != null; node = node.next) {
                Node previous = at;
                at = node;
                if (!seen(node.index)) {
                    // in step with the reader (the usual case), this stream's next token is the reader's own
                    token = token != null && token.equals(previous.token) ? node.token : advanced(node, node.index);
                    if (handles(node.event)) {
                        return handOut(node.event.withTrackingToken(token));
                    }
                    passOver(node.event, -1);
                }
            }
            if (at.dropped) {
                // the window let go of this node while the stream walked to it
                at = null;
                return fromStore();
            }
            return null;
        }

        /**
         * The next event read from the store; at the store's end, the stream joins the window. When the window has
         * moved past what the stream read meanwhile (no node its token covers), the store is read once more at once:
         * what it missed is there. (Failing that, the processor asks again within its claim interval.)
         */
        private TrackedEventMessage<?> fromStore() {
            for (int attempt = 0; attempt < 2; attempt++) {
                if (ownEvents == null) {
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
                at = joinPoint();
                if (at != null) {
                    return fromWindow();
                }
            }
            return null;
        }

        /** The newest node of the window whose events this stream has all seen; starts the reader here if it is the first. */
        private Node joinPoint() {
            Node first = oldest != null ? oldest : startAt(token);
            Node joinable = null;
            for (Node node = first; node != null; node = node.next) {
                if (covers(token, node.token)) {
                    joinable = node;
                }
            }
            return joinable;
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
            boolean recent = node.event.getTimestamp().isAfter(GenericEventMessage.clock.instant().minus(gapTimeout));
            GapAwareTrackingToken next = token.advanceTo(index, recent ? maxGapOffset : 0);
            SortedSet<Long> gaps = next.getGaps();
            if (gaps.isEmpty()) {
                return next;
            }
            SortedSet<Long> kept = new TreeSet<>();
            for (long gap : gaps) {
                if (gap > node.token.getIndex() || node.token.getGaps().contains(gap)) {
                    kept.add(gap);
                }
            }
            return kept.size() == gaps.size() ? next : GapAwareTrackingToken.newInstance(next.getIndex(), kept);
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

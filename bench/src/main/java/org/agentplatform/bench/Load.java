package org.agentplatform.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Request generators. Closed loop: {@code connections} callers, each sending its next request when the
 * last one answered (what a pool of clients does). Open loop: requests at a fixed rate whatever the
 * answers, each latency measured from when it was due (so a stalled service is not hidden by a
 * generator that waits for it).
 */
final class Load {

    /** How many requests were answered with the expected status, how many not, and their latencies. */
    record Result(long ok, long failed, double seconds, Latencies.Summary latency, String firstFailure) {

        double perSecond() {
            return ok / seconds;
        }
    }

    private Load() {
    }

    /** {@code body.apply(n)} is the n-th request's JSON body, POSTed to {@code path} (a null {@code body}: GETs). */
    static Result closedLoop(String host, int port, String token, int connections, Duration duration, String path, int expected,
            IntFunction<String> body) throws InterruptedException {
        return closedLoop(host, port, token, connections, duration, Long.MAX_VALUE, path, expected, body);
    }

    /** As above, sending at most {@code count} requests in all. */
    static Result closedLoop(String host, int port, String token, int connections, Duration duration, long count, String path,
            int expected, IntFunction<String> body) throws InterruptedException {
        Latencies latencies = new Latencies();
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong sequence = new AtomicLong();
        StringBuffer firstFailure = new StringBuffer();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<Thread> callers = new ArrayList<>();
        for (int caller = 0; caller < connections; caller++) {
            callers.add(Thread.ofPlatform().name("load-" + caller).start(() -> {
                try (HttpConnection http = new HttpConnection(host, port, token)) {
                    long n;
                    while (System.nanoTime() < end && (n = sequence.getAndIncrement()) < count) {
                        String json = body == null ? null : body.apply((int) n);
                        long sent = System.nanoTime();
                        HttpConnection.Response response = json == null ? http.get(path) : http.post(path, json);
                        latencies.record(sent, System.nanoTime());
                        count(response, expected, ok, failed, firstFailure);
                    }
                }
            }));
        }
        for (Thread caller : callers) {
            caller.join();
        }
        return new Result(ok.get(), failed.get(), (System.nanoTime() - start) / 1e9, latencies.summary(), firstFailure.toString());
    }

    /** Requests at {@code rate} per second for {@code duration}, spread over {@code connections} callers. */
    static Result openLoop(String host, int port, String token, int connections, double rate, Duration duration, String path,
            int expected, IntFunction<String> body) throws InterruptedException {
        return openLoop(host, port, token, connections, rate, duration, path, expected, body, new AtomicBoolean(false));
    }

    /** As above; stops early when {@code stop} is set (a background load). */
    static Result openLoop(String host, int port, String token, int connections, double rate, Duration duration, String path,
            int expected, IntFunction<String> body, AtomicBoolean stop) throws InterruptedException {
        return openLoop(host, port, token, connections, rate, duration, path, expected, body, stop, (sent, response) -> { });
    }

    /** Told of each answer: when its request was sent ({@link System#nanoTime}) and the response, as the answer comes. */
    interface Answers {

        void answered(long sentNanos, HttpConnection.Response response);
    }

    /** As above, each answer told to {@code answers} on the caller's thread. */
    static Result openLoop(String host, int port, String token, int connections, double rate, Duration duration, String path,
            int expected, IntFunction<String> body, AtomicBoolean stop, Answers answers) throws InterruptedException {
        Latencies latencies = new Latencies();
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        StringBuffer firstFailure = new StringBuffer();
        long intervalNanos = (long) (1e9 * connections / rate);
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<Thread> callers = new ArrayList<>();
        for (int caller = 0; caller < connections; caller++) {
            int offset = caller;
            callers.add(Thread.ofPlatform().name("open-load-" + caller).start(() -> {
                try (HttpConnection http = new HttpConnection(host, port, token)) {
                    long due = start + offset * intervalNanos / connections;
                    int n = offset;
                    while (due < end && !stop.get()) {
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            sleepNanos(wait);
                        }
                        long sent = System.nanoTime();
                        HttpConnection.Response response = http.post(path, body.apply(n));
                        latencies.record(due, System.nanoTime());
                        answers.answered(sent, response);
                        count(response, expected, ok, failed, firstFailure);
                        due += intervalNanos;
                        n += connections;
                    }
                }
            }));
        }
        for (Thread caller : callers) {
            caller.join();
        }
        return new Result(ok.get(), failed.get(), (System.nanoTime() - start) / 1e9, latencies.summary(), firstFailure.toString());
    }

    private static void count(HttpConnection.Response response, int expected, AtomicLong ok, AtomicLong failed, StringBuffer first) {
        if (response.status() == expected) {
            ok.incrementAndGet();
        } else if (failed.getAndIncrement() == 0) {
            first.append(response.status()).append(' ').append(response.body(), 0, Math.min(300, response.body().length()));
        }
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(Duration.ofNanos(nanos));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

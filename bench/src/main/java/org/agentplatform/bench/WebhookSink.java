package org.agentplatform.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * A local webhook receiver: answers 200 at once and records, per callback, the time from the transition
 * (the payload's {@code timestamp}) to its arrival.
 */
final class WebhookSink implements AutoCloseable {

    private final HttpServer server;
    private final Latencies transitionToArrival = new Latencies();
    private final AtomicLong received = new AtomicLong();
    private volatile long firstNanos;
    private volatile long lastNanos;

    WebhookSink() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/hook", exchange -> {
            long arrived = System.nanoTime();
            Instant now = Instant.now();
            try (InputStream body = exchange.getRequestBody()) {
                JsonNode payload = Platform.JSON.readTree(body.readAllBytes());
                Instant at = Instant.parse(payload.get("timestamp").asString());
                long lagNanos = Math.max(0, java.time.Duration.between(at, now).toNanos());
                transitionToArrival.record(0, lagNanos);
            }
            if (received.getAndIncrement() == 0) {
                firstNanos = arrived;
            }
            lastNanos = arrived;
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    long received() {
        return received.get();
    }

    /** Callbacks per second between the first and the last one. */
    double perSecond() {
        long span = lastNanos - firstNanos;
        return span <= 0 ? received.get() : (received.get() - 1) / (span / 1e9);
    }

    Latencies.Summary lag() {
        return transitionToArrival.summary();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

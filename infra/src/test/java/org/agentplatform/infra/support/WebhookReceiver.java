package org.agentplatform.infra.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A real webhook receiver on 127.0.0.1 for tests: records every callback (headers, raw body and the status it got) per path
 * and answers with the status set for that path (200 by default; a 3xx carries a {@code Location}).
 * {@link #verify} is a standard {@code t=...,v1=...} verifier, as a receiver would write it.
 */
public final class WebhookReceiver implements AutoCloseable {

    private final HttpServer server;
    private final Map<String, List<Callback>> received = new ConcurrentHashMap<>();
    private final Map<String, Integer> answers = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> held = new ConcurrentHashMap<>();

    /** One callback as it arrived. */
    public record Callback(Map<String, String> headers, byte[] body, Instant at, int answered) {

        public String header(String name) {
            return headers.get(name.toLowerCase());
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    public WebhookReceiver() {
        this(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /** A receiver on every local address (so 127.0.0.2 and IPv6 spellings reach it too): the SSRF tests' target. */
    public static WebhookReceiver onEveryAddress() {
        return new WebhookReceiver(new InetSocketAddress(0));
    }

    private WebhookReceiver(InetSocketAddress address) {
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            Map<String, String> headers = new ConcurrentHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), String.join(",", values)));
            byte[] body = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            int status = answers.getOrDefault(path, 200);
            received.computeIfAbsent(path, key -> new CopyOnWriteArrayList<>()).add(new Callback(headers, body, Instant.now(), status));
            CountDownLatch gate = held.get(path);
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            if (status >= 300 && status < 400) {
                exchange.getResponseHeaders().set("Location", url("/redirected"));
            }
            byte[] answer = ("{\"received\":\"" + path + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public void answer(String path, int status) {
        answers.put(path, status);
    }

    /** Requests to {@code path} are recorded as they arrive but answered only after {@link #release}. */
    public void hold(String path) {
        held.put(path, new CountDownLatch(1));
    }

    /** Answers the held requests to {@code path}, and those that come later at once. */
    public void release(String path) {
        CountDownLatch gate = held.remove(path);
        if (gate != null) {
            gate.countDown();
        }
    }

    /** How many requests arrived, on any path. */
    public int received() {
        return received.values().stream().mapToInt(List::size).sum();
    }

    public List<Callback> callbacks(String path) {
        return List.copyOf(received.getOrDefault(path, List.of()));
    }

    /** Waits until {@code path} got at least {@code count} callbacks; answers them. */
    public List<Callback> await(String path, int count) {
        return PlatformClient.await(() -> callbacks(path), list -> list.size() >= count, count + " callbacks on " + path);
    }

    /** A receiver's check: the signature over {@code "<t>." + raw body}, in constant time, and a timestamp within 5 minutes. */
    public static boolean verify(Callback callback, String secret, Instant now) {
        String header = callback.header("X-Service-Signature");
        if (header == null) {
            return false;
        }
        String timestamp = null;
        String signature = null;
        for (String part : header.split(",")) {
            if (part.startsWith("t=")) {
                timestamp = part.substring(2);
            } else if (part.startsWith("v1=")) {
                signature = part.substring(3);
            }
        }
        if (timestamp == null || signature == null
                || Duration.between(Instant.ofEpochSecond(Long.parseLong(timestamp)), now).abs().compareTo(Duration.ofMinutes(5)) > 0) {
            return false;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            byte[] expected = HexFormat.of().formatHex(mac.doFinal(callback.body())).getBytes(StandardCharsets.US_ASCII);
            return MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII));
        } catch (Exception impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public void close() {
        // answers already being written are finished (up to a second): a test that closes its receiver right after the
        // last callback arrived must not turn that attempt into a reset connection the platform counts as failed
        server.stop(1);
    }
}

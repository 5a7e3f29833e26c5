package org.agentplatform.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A terminal's WebSocket (the JDK's client): what the shell wrote, and waits for text in it. */
final class TerminalSocket implements WebSocket.Listener, AutoCloseable {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private final StringBuilder output = new StringBuilder();
    private WebSocket socket;

    static TerminalSocket attach(String url) {
        TerminalSocket listener = new TerminalSocket();
        listener.socket = CLIENT.newWebSocketBuilder().buildAsync(URI.create(url), listener).orTimeout(30, TimeUnit.SECONDS).join();
        return listener;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        synchronized (output) {
            output.append(StandardCharsets.UTF_8.decode(data));
            output.notifyAll();
        }
        webSocket.request(1);
        return null;
    }

    void type(String text) {
        socket.sendText(text, true).join();
    }

    /** Waits until the output holds {@code expected} (at most 30 s). */
    void await(String expected) throws InterruptedException {
        await(output -> output.indexOf(expected) >= 0, "the terminal never showed '" + expected + "'");
    }

    /** Waits for the first output (the shell's prompt). */
    void awaitOutput() throws InterruptedException {
        await(output -> !output.isEmpty(), "the terminal's shell wrote nothing");
    }

    private void await(Predicate<StringBuilder> shown, String failure) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        synchronized (output) {
            while (!shown.test(output)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException(failure + "; it showed: " + output);
                }
                TimeUnit.NANOSECONDS.timedWait(output, left);
            }
        }
    }

    @Override
    public void close() {
        socket.abort();
    }
}

package org.agentplatform.infra.local.terminal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.agentplatform.api.terminal.Terminals.Closing;
import org.agentplatform.api.terminal.Terminals;
import org.agentplatform.kernel.terminal.TerminalId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * One terminal's shell on a pseudo-terminal (util-linux {@code script} holds the PTY; its pipes are ours). A reader
 * thread keeps the output in a {@link Scrollback}; each connection reads it from its own offset, as fast as its client
 * takes it (a slow client skips what scrolled out, the shell never waits for it). One connection at a time: a new one
 * replaces the last.
 */
final class Pty {

    private static final Logger log = LoggerFactory.getLogger(Pty.class);
    private static final int READ_BUFFER = 8192;
    private static final int FRAME = 16384;
    private static final Duration KILL_GRACE = Duration.ofSeconds(2);
    static final Closing REPLACED = new Closing(4001, "replaced: another connection attached to the terminal");

    private final TerminalId id;
    private final Process process;
    private final Scrollback scrollback;
    private final OutputStream input;
    /** Guarded by this. */
    private Link current;
    /** Guarded by this: how the terminal ended, once its shell is gone. */
    private Closing ended;
    /** Set when the platform ends the terminal: its shell's exit is then not reported. */
    private volatile Closing endRequested;

    private Pty(TerminalId id, Process process, int scrollback) {
        this.id = id;
        this.process = process;
        this.scrollback = new Scrollback(scrollback);
        this.input = process.getOutputStream();
    }

    /** Starts the shell and its reader; {@code exited} gets the shell's exit status when it ends by itself. */
    static Pty start(TerminalId id, ProcessBuilder shell, int scrollback, IntConsumer exited) throws IOException {
        Pty pty = new Pty(id, shell.start(), scrollback);
        // a platform thread: a virtual one blocked reading a pipe would hold one of the few carrier threads for the terminal's life
        Thread.ofPlatform().daemon().name("terminal-" + id).start(() -> pty.pump(exited));
        return pty;
    }

    private void pump(IntConsumer exited) {
        byte[] buffer = new byte[READ_BUFFER];
        try (InputStream output = process.getInputStream()) {
            for (int read = output.read(buffer); read >= 0; read = output.read(buffer)) {
                Link reader;
                synchronized (this) {
                    scrollback.append(buffer, read);
                    reader = current;
                }
                if (reader != null) {
                    reader.drain();
                }
            }
        } catch (IOException gone) {
            log.atDebug().addKeyValue("terminal_id", id.toString()).log("terminal output closed: " + gone.getMessage());
        }
        int status = exitStatus();
        Closing requested = endRequested;
        finish(requested != null ? requested : new Closing(1000, "shell_exited: exit status " + status));
        if (requested == null) {
            exited.accept(status);
        }
    }

    private int exitStatus() {
        try {
            return process.waitFor();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private void finish(Closing closing) {
        Link reader;
        synchronized (this) {
            ended = closing;
            reader = current;
        }
        if (reader != null) {
            reader.finish(closing);
        }
    }

    /** A new connection, reading from the oldest output kept; the one before it is replaced. */
    Link attach() {
        Link replaced;
        Link link;
        synchronized (this) {
            replaced = current;
            link = new Link(scrollback.oldest());
            current = link;
            if (ended != null) {
                link.closing = ended;
            }
        }
        if (replaced != null) {
            replaced.finish(REPLACED);
        }
        return link;
    }

    /** Ends the shell and all it started; the connection closes with {@code closing} once the output is drained. */
    void end(Closing closing) {
        endRequested = closing;
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        CompletableFuture.delayedExecutor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        });
    }

    private synchronized Scrollback.Chunk read(long from) {
        return scrollback.read(from, FRAME);
    }

    private synchronized boolean drained(long offset) {
        return offset >= scrollback.end();
    }

    private synchronized void detach(Link link) {
        if (current == link) {
            current = null;
        }
    }

    private void write(byte[] bytes) {
        try {
            synchronized (input) {
                input.write(bytes);
                input.flush();
            }
        } catch (IOException gone) {
            log.atDebug().addKeyValue("terminal_id", id.toString()).log("terminal input closed: " + gone.getMessage());
        }
    }

    /** Sets the PTY's window size through the shell's terminal device; the kernel signals the foreground program. */
    private void resize(int cols, int rows) {
        Optional<String> device = process.children().findFirst().flatMap(Pty::terminalOf);
        if (device.isEmpty()) {
            return;
        }
        try {
            Process stty = new ProcessBuilder("stty", "-F", device.get(), "cols", Integer.toString(cols), "rows", Integer.toString(rows))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!stty.waitFor(2, TimeUnit.SECONDS)) {
                stty.destroyForcibly();
            }
        } catch (IOException failure) {
            log.atDebug().addKeyValue("terminal_id", id.toString()).log("resize failed: " + failure.getMessage());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static Optional<String> terminalOf(ProcessHandle shell) {
        try {
            Path device = Files.readSymbolicLink(Path.of("/proc", Long.toString(shell.pid()), "fd", "0"));
            return device.toString().startsWith("/dev/pts/") ? Optional.of(device.toString()) : Optional.empty();
        } catch (IOException | UnsupportedOperationException notLinux) {
            return Optional.empty();
        }
    }

    /** One connection's view of the terminal. */
    final class Link implements Terminals.Connection {

        private final AtomicInteger work = new AtomicInteger();
        private long offset;
        private volatile FluxSink<byte[]> sink;
        private volatile Closing closing;

        private Link(long offset) {
            this.offset = offset;
        }

        @Override
        public Flux<byte[]> output() {
            return Flux.create(created -> {
                sink = created;
                created.onRequest(demand -> drain());
                created.onDispose(() -> detach(this));
            });
        }

        @Override
        public Closing closing() {
            return closing;
        }

        @Override
        public void write(byte[] bytes) {
            Pty.this.write(bytes);
        }

        @Override
        public void resize(int cols, int rows) {
            Pty.this.resize(cols, rows);
        }

        @Override
        public void close() {
            detach(this);
        }

        void finish(Closing how) {
            closing = how;
            drain();
        }

        /** Sends what the client asked for and is there; completes once closing and (unless replaced) drained. */
        void drain() {
            if (work.getAndIncrement() != 0) {
                return;
            }
            do {
                FluxSink<byte[]> out = sink;
                if (out != null) {
                    while (out.requestedFromDownstream() > 0) {
                        Scrollback.Chunk chunk = read(offset);
                        if (chunk == null) {
                            break;
                        }
                        offset = chunk.next();
                        out.next(chunk.bytes());
                    }
                    Closing how = closing;
                    if (how != null && (how == REPLACED || drained(offset))) {
                        out.complete();
                    }
                }
            } while (work.decrementAndGet() != 0);
        }
    }
}

package org.agentplatform.api.terminal;

import org.agentplatform.kernel.terminal.TerminalCommand.Attachment;
import reactor.core.publisher.Flux;

/**
 * Port: the shells of terminals, where the instance's provider runs them (the local provider: a PTY on this host).
 * A connection sees the terminal's recent output first (its scrollback), then what follows.
 */
public interface Terminals {

    /** Whether this service can run terminals at all (the local provider needs util-linux {@code script}). */
    boolean available();

    /**
     * Connects an attachment: the first starts the terminal's shell ({@code cols} x {@code rows}); a later one replaces
     * the connection attached before it.
     *
     * @throws Lost when a later attachment finds no shell (the node that ran it restarted)
     */
    Connection connect(Attachment attachment, int cols, int rows);

    interface Connection {

        /** Output bytes; completes when the shell ended or another connection replaced this one ({@link #closing()}). */
        Flux<byte[]> output();

        /** Why {@link #output()} completed: null before it did. */
        Closing closing();

        /** Input bytes, in order; blocks while the shell does not read. */
        void write(byte[] input);

        /** A new window size; the shell's foreground program gets {@code SIGWINCH}. */
        void resize(int cols, int rows);

        /** The connection went away: the shell keeps running, unseen. */
        void close();
    }

    /** A WebSocket close status ({@code 1000}, {@code 1001} or {@code 4000}-{@code 4999}) and its reason. */
    record Closing(int code, String reason) {
    }

    final class Lost extends RuntimeException {

        public Lost(String message) {
            super(message, null, false, false);
        }
    }
}

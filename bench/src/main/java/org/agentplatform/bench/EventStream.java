package org.agentplatform.bench;

import java.io.IOException;

/** A server-sent event stream read frame by frame (comments skipped). */
final class EventStream implements AutoCloseable {

    /** One frame: its {@code event:}, {@code id:} (null when absent) and {@code data:}. */
    record Frame(String event, String id, String data) {
    }

    private final int status;
    private final HttpConnection connection;

    EventStream(int status, HttpConnection connection) {
        this.status = status;
        this.connection = connection;
    }

    int status() {
        return status;
    }

    /** The next frame; null when the stream ended. */
    Frame next() throws IOException {
        String event = null;
        String id = null;
        StringBuilder data = null;
        String line;
        while ((line = connection.line()) != null) {
            if (line.isEmpty()) {
                if (event != null || data != null) {
                    return new Frame(event, id, data == null ? "" : data.toString());
                }
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1).stripLeading();
            switch (field) {
                case "event" -> event = value;
                case "id" -> id = value;
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                default -> {
                }
            }
        }
        return null;
    }

    @Override
    public void close() {
        connection.close();
    }
}

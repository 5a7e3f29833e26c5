package org.agentplatform.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection, used by one thread at a time. A load generator that shares the
 * machine with the service must cost little per request: this writes the request bytes and reads the
 * answer (by {@code Content-Length} or chunked), nothing more.
 */
final class HttpConnection implements AutoCloseable {

    /** An answer: its status and body. */
    record Response(int status, String body) {
    }

    private final String host;
    private final int port;
    private final String authorization;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private int chunkLeft;
    private boolean streamEnded;

    HttpConnection(String host, int port, String token) {
        this.host = host;
        this.port = port;
        this.authorization = token == null ? "" : "Authorization: Bearer " + token + "\r\n";
    }

    Response get(String path) {
        return send("GET", path, null);
    }

    Response post(String path, String json) {
        return send("POST", path, json);
    }

    Response send(String method, String path, String json) {
        for (int attempt = 0; ; attempt++) {
            try {
                connect();
                write(method, path, json, "application/json");
                return read();
            } catch (IOException failure) {
                close();
                if (attempt == 1) {
                    throw new UncheckedIOException(method + " " + path, failure);
                }
            }
        }
    }

    /** Sends a GET for an event stream and leaves the connection to {@link #lines}: it is not reusable afterwards. */
    EventStream stream(String path, String lastEventId) {
        try {
            connect();
            String extra = lastEventId == null ? "" : "Last-Event-ID: " + lastEventId + "\r\n";
            String request = "GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n" + authorization + extra
                    + "Accept: text/event-stream\r\n\r\n";
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            int status = readHead().status;
            return new EventStream(status, this);
        } catch (IOException failure) {
            close();
            throw new UncheckedIOException("GET " + path, failure);
        }
    }

    /** The next line of a streamed (chunked) body, without its line end; null at its end. */
    String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            int next = nextStreamedByte();
            if (next < 0) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
            }
            if (next == '\n') {
                return line.toString(StandardCharsets.UTF_8);
            }
            if (next != '\r') {
                line.write(next);
            }
        }
    }

    private int nextStreamedByte() throws IOException {
        if (streamEnded) {
            return -1;
        }
        if (chunkLeft == 0) {
            String size = readLine();
            if (size.isEmpty()) {
                size = readLine();
            }
            chunkLeft = Integer.parseInt(size.strip(), 16);
            if (chunkLeft == 0) {
                streamEnded = true;
                return -1;
            }
        }
        int next = in.read();
        if (next < 0) {
            streamEnded = true;
            return -1;
        }
        chunkLeft--;
        if (chunkLeft == 0) {
            readLine();
        }
        return next;
    }

    private void connect() throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), 5_000);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = socket.getOutputStream();
        }
    }

    private void write(String method, String path, String json, String contentType) throws IOException {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(256).append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port)
                .append("\r\n").append(authorization);
        if (json != null) {
            head.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.UTF_8));
        if (body.length > 0) {
            out.write(body);
        }
        out.flush();
    }

    private record Head(int status, int length, boolean chunked, boolean close) {
    }

    private Head readHead() throws IOException {
        String statusLine = readLine();
        if (statusLine.isEmpty()) {
            throw new IOException("connection closed");
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        int length = -1;
        boolean chunked = false;
        boolean close = false;
        String line;
        while (!(line = readLine()).isEmpty()) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            switch (name) {
                case "content-length" -> length = Integer.parseInt(value);
                case "transfer-encoding" -> chunked = value.equalsIgnoreCase("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> {
                }
            }
        }
        return new Head(status, length, chunked, close);
    }

    private Response read() throws IOException {
        Head head = readHead();
        ByteArrayOutputStream body = new ByteArrayOutputStream(Math.max(head.length(), 64));
        if (head.chunked()) {
            int size;
            while ((size = Integer.parseInt(readLine().strip(), 16)) > 0) {
                body.write(in.readNBytes(size));
                readLine();
            }
            readLine();
        } else if (head.length() > 0) {
            body.write(in.readNBytes(head.length()));
        }
        if (head.close()) {
            close();
        }
        return new Response(head.status(), body.toString(StandardCharsets.UTF_8));
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder(64);
        int next;
        while ((next = in.read()) >= 0 && next != '\n') {
            if (next != '\r') {
                line.append((char) next);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            socket = null;
        }
        chunkLeft = 0;
        streamEnded = false;
    }
}

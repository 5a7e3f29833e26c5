package org.agentplatform.bench;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * From a task's create to its stream's frames: tasks created one after the other through one node, each watched on a
 * new stream (through the same node or another) from its first {@code task_status} frame to {@code done}; optionally
 * while an open-loop background of creates runs on the first node.
 */
final class FirstFrames {

    /**
     * The latencies of one series, each from the create's request: its 202, the stream's response head (sent once the
     * task is found: in the node's recent events or its read model), the first {@code task_status} frame, and {@code done}.
     */
    record Watched(Latencies accepted, Latencies streamOpen, Latencies firstFrame, Latencies done) {
    }

    private final String host;
    private final String key;
    private final String tasksPath;

    FirstFrames(String host, String key, String agent) {
        this.host = host;
        this.key = key;
        this.tasksPath = "/api/v1/agents/" + agent + "/tasks";
    }

    /** {@code samples} tasks created through {@code createPort}, their streams opened through {@code streamPort}. */
    Watched watch(int samples, int createPort, int streamPort) throws Exception {
        Latencies accepted = new Latencies();
        Latencies streamOpen = new Latencies();
        Latencies firstFrame = new Latencies();
        Latencies done = new Latencies();
        try (HttpConnection http = new HttpConnection(host, createPort, key)) {
            for (int n = 0; n < samples; n++) {
                long sent = System.nanoTime();
                String task = Platform.ok(http.post(tasksPath, Platform.echoTask("watched " + n)), 202).at("/data/task_id").asString();
                accepted.record(sent, System.nanoTime());
                try (EventStream stream = new HttpConnection(host, streamPort, key).stream(tasksPath + "/" + task + "/events", null)) {
                    streamOpen.record(sent, System.nanoTime());
                    boolean seenStatus = false;
                    EventStream.Frame frame;
                    while ((frame = stream.next()) != null) {
                        if (!seenStatus && "task_status".equals(frame.event())) {
                            firstFrame.record(sent, System.nanoTime());
                            seenStatus = true;
                        }
                        if ("done".equals(frame.event())) {
                            done.record(sent, System.nanoTime());
                            break;
                        }
                    }
                }
            }
        }
        return new Watched(accepted, streamOpen, firstFrame, done);
    }

    /** As {@link #watch} on one node, while {@code backgroundRate} creates a second arrive there besides (none when 0). */
    Watched underBackground(int samples, int port, double backgroundRate) throws Exception {
        if (backgroundRate <= 0) {
            return watch(samples, port, port);
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread background = Thread.ofPlatform().start(() -> {
            try {
                Load.openLoop(host, port, key, 8, backgroundRate, Duration.ofMinutes(10), tasksPath, 202,
                        n -> Platform.echoTask("background " + n), stop);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            Thread.sleep(1000);
            return watch(samples, port, port);
        } finally {
            stop.set(true);
            background.join();
        }
    }
}

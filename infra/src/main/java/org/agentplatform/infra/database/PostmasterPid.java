package org.agentplatform.infra.database;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A cluster's {@code postmaster.pid}, as PostgreSQL writes it: its first line the server's pid, its fourth the port, its
 * eighth the server's state ({@code ready} once it accepts connections). The pid in it may be stale: the server died and
 * the number now belongs to another process, even another PostgreSQL; {@link #holder} tells whether it is this cluster's.
 */
record PostmasterPid(long pid, int port, String state) {

    static final String FILE = "postmaster.pid";

    /** The cluster's file, if there is one (and it is complete enough to name a pid). */
    static Optional<PostmasterPid> read(Path cluster) throws IOException {
        Path file = cluster.resolve(FILE);
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (java.nio.file.NoSuchFileException gone) {
            return Optional.empty();
        }
        if (lines.isEmpty() || lines.getFirst().isBlank()) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(lines.getFirst().strip());
            int port = lines.size() > 3 && !lines.get(3).isBlank() ? Integer.parseInt(lines.get(3).strip()) : 0;
            String state = lines.size() > 7 ? lines.get(7).strip() : "";
            return Optional.of(new PostmasterPid(pid, port, state));
        } catch (NumberFormatException halfWritten) {
            return Optional.empty();
        }
    }

    boolean isReady() {
        return "ready".equals(state);
    }

    /** Who holds a pid a {@code postmaster.pid} names. */
    enum Holder {
        /** No live process. */
        NONE,
        /** A server of this cluster (it works in the cluster's directory). */
        THIS_CLUSTER,
        /** Another process: the pid was reused, possibly by another cluster's server. */
        ANOTHER,
        /** A live process this service may not inspect: nothing is decided about it. */
        UNKNOWN
    }

    /**
     * Who holds {@code pid}: a postmaster works in its data directory (its current directory, read from {@code /proc}),
     * or where there is no {@code /proc}, names the directory on its command line.
     */
    static Holder holder(long pid, Path cluster) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return Holder.NONE;
        }
        Path real;
        try {
            real = cluster.toRealPath();
        } catch (IOException noCluster) {
            return Holder.ANOTHER;
        }
        Path proc = Path.of("/proc", Long.toString(pid));
        if (Files.isDirectory(proc)) {
            try {
                return Files.readSymbolicLink(proc.resolve("cwd")).equals(real) ? Holder.THIS_CLUSTER : Holder.ANOTHER;
            } catch (IOException | UnsupportedOperationException unreadable) {
                return Holder.UNKNOWN;
            }
        }
        return process.get().info().commandLine()
                .map(line -> line.contains(real.toString()) || line.contains(cluster.toString()) ? Holder.THIS_CLUSTER : Holder.ANOTHER)
                .orElse(Holder.UNKNOWN);
    }
}

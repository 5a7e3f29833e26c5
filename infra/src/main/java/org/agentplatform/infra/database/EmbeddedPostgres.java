package org.agentplatform.infra.database;

import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server the service runs itself when no database is configured. Its cluster lives
 * in {@code <dataDir>/postgres} and survives restarts; the superuser password is generated at
 * {@code initdb} and kept in {@code <dataDir>/postgres.password} (0600); the server listens on
 * 127.0.0.1 only. A file lock makes one service own a data directory at a time, and a server left
 * running by a run that was killed is stopped before a new one starts.
 */
public final class EmbeddedPostgres implements DatabaseServer {

    public static final String DATABASE = "agent_platform";
    private static final String SUPERUSER = "postgres";
    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgres.class);

    private final Path binaries;
    private final Path cluster;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Options options;
    private DatabaseEndpoint endpoint;
    private boolean running;

    /**
     * @param binariesRoot   where the PostgreSQL binaries are unpacked (shared by all data directories)
     * @param port           the port to listen on, 0 for any free one
     * @param durable        fsync and synchronous commit; only throwaway test clusters turn them off
     * @param maxConnections the server's connection limit
     * @param startTimeout   how long start and stop may take
     */
    /** How the server runs; {@code settings} are further server settings, each passed as {@code -c name=value}. */
    public record Options(Path binariesRoot, int port, boolean durable, int maxConnections, Duration startTimeout,
            Map<String, String> settings) {

        public Options(Path binariesRoot, int port, boolean durable, int maxConnections, Duration startTimeout) {
            this(binariesRoot, port, durable, maxConnections, startTimeout, Map.of());
        }
    }

    private EmbeddedPostgres(Path binaries, Path cluster, FileChannel lockChannel, FileLock lock, Options options) {
        this.binaries = binaries;
        this.cluster = cluster;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.options = options;
    }

    /** Starts (and on first use creates) the cluster under {@code dataDir}, with database {@value #DATABASE}. */
    public static EmbeddedPostgres start(Path dataDir, Options options) throws IOException {
        Files.createDirectories(dataDir);
        FileChannel channel = FileChannel.open(dataDir.resolve("postgres.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = tryLock(channel);
        if (lock == null) {
            channel.close();
            throw new IllegalStateException("The data directory " + dataDir.toAbsolutePath()
                    + " is in use by another agent-platform process");
        }
        EmbeddedPostgres server = new EmbeddedPostgres(PostgresBinaries.install(options.binariesRoot()),
                dataDir.resolve("postgres"), channel, lock, options);
        try {
            server.boot(dataDir);
            return server;
        } catch (IOException | RuntimeException failure) {
            server.close();
            throw failure;
        }
    }

    /**
     * The endpoint of the embedded server another live process runs on {@code dataDir}, if any: the
     * CLI uses it to work beside a running service instead of starting a second server.
     */
    public static Optional<DatabaseEndpoint> runningIn(Path dataDir) throws IOException {
        Path lockFile = dataDir.resolve("postgres.lock");
        Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
        if (!Files.exists(lockFile) || !Files.exists(pidFile)) {
            return Optional.empty();
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE); FileLock free = tryLock(channel)) {
            if (free != null) {
                return Optional.empty();
            }
        }
        List<String> lines = Files.readAllLines(pidFile);
        int port = Integer.parseInt(lines.get(3).strip());
        return Optional.of(new DatabaseEndpoint("127.0.0.1", port, DATABASE, SUPERUSER, readPassword(dataDir), Map.of()));
    }

    /** The lock, or null when another process, or another server in this JVM, holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            return null;
        }
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return endpoint;
    }

    private void boot(Path dataDir) throws IOException {
        Path passwordFile = dataDir.resolve("postgres.password");
        if (!Files.exists(cluster.resolve("PG_VERSION"))) {
            initdb(passwordFile);
        }
        String password = readPassword(dataDir);
        stopLeftoverServer();
        int port = options.port() > 0 ? options.port() : freePort();
        run(Duration.ofSeconds(options.startTimeout().toSeconds() + 10), dataDir.resolve("postgres.log"),
                "pg_ctl", "start", "-D", cluster.toString(), "-w", "-t", Long.toString(options.startTimeout().toSeconds()),
                "-l", dataDir.resolve("postgres.log").toString(), "-o", String.join(" ", serverOptions(port)));
        running = true;
        DatabaseEndpoint admin = new DatabaseEndpoint("127.0.0.1", port, "postgres", SUPERUSER, password, Map.of());
        createDatabaseIfMissing(admin);
        endpoint = admin.withDatabase(DATABASE);
        log.atInfo().addKeyValue("port", port).addKeyValue("cluster", cluster.toAbsolutePath().toString())
                .log("embedded PostgreSQL started");
    }

    private void initdb(Path passwordFile) throws IOException {
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        Files.deleteIfExists(passwordFile);
        Files.createFile(passwordFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(passwordFile, HexFormat.of().formatHex(secret), StandardCharsets.US_ASCII);
        PostgresBinaries.deleteRecursively(cluster);
        log.atInfo().addKeyValue("cluster", cluster.toAbsolutePath().toString()).log("creating the embedded PostgreSQL cluster");
        run(Duration.ofMinutes(2), null, "initdb", "-D", cluster.toString(), "-U", SUPERUSER, "-A", "scram-sha-256",
                "--pwfile=" + passwordFile, "-E", "UTF8", "--no-locale");
    }

    private static String readPassword(Path dataDir) throws IOException {
        Path passwordFile = dataDir.resolve("postgres.password");
        if (!Files.exists(passwordFile)) {
            throw new IllegalStateException("The embedded PostgreSQL cluster in " + dataDir.toAbsolutePath()
                    + " has lost its password file postgres.password; restore it or start from an empty data directory");
        }
        return Files.readString(passwordFile, StandardCharsets.US_ASCII).strip();
    }

    private List<String> serverOptions(int port) {
        List<String> settings = new ArrayList<>(List.of(
                "-p", Integer.toString(port),
                "-c", "listen_addresses=127.0.0.1",
                "-c", "unix_socket_directories=",
                "-c", "max_connections=" + options.maxConnections()));
        if (!options.durable()) {
            settings.addAll(List.of("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"));
        }
        options.settings().forEach((name, value) -> settings.addAll(List.of("-c", name + "=" + value)));
        return settings;
    }

    /** A server a killed run left behind would hold the cluster; stop it (only if it really is postgres). */
    private void stopLeftoverServer() throws IOException {
        Path pidFile = cluster.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
        Optional<ProcessHandle> leftover = ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().command().map(command -> command.contains("postgres")).orElse(false));
        if (leftover.isPresent()) {
            log.atWarn().addKeyValue("pid", pid).log("stopping an embedded PostgreSQL left running by a previous run");
            run(options.startTimeout(), null, "pg_ctl", "stop", "-D", cluster.toString(), "-m", "fast", "-w",
                    "-t", Long.toString(options.startTimeout().toSeconds()));
        } else if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            Files.delete(pidFile); // stale: its pid now belongs to an unrelated process
        }
    }

    private static void createDatabaseIfMissing(DatabaseEndpoint admin) {
        try (Connection connection = DriverManager.getConnection(admin.jdbcUrl(), admin.user(), admin.password());
             PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, DATABASE);
            try (ResultSet row = exists.executeQuery()) {
                if (row.next()) {
                    return;
                }
            }
            try (Statement create = connection.createStatement()) {
                create.execute("CREATE DATABASE " + DATABASE);
            }
        } catch (SQLException failure) {
            throw new IllegalStateException("Cannot create the database " + DATABASE + " in the embedded PostgreSQL", failure);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Runs a PostgreSQL program; as root inside a user namespace, because PostgreSQL refuses to run as root. */
    private void run(Duration timeout, Path outputFile, String program, String... arguments) throws IOException {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.addAll(List.of("unshare", "-U"));
        }
        command.add(binaries.resolve("bin").resolve(program).toString());
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("PG") || name.startsWith("LC_"));
        Path output = outputFile != null ? outputFile : Files.createTempFile("agent-platform-" + program, ".log");
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        Process process = builder.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(program + " did not finish within " + timeout + "; see " + output);
            }
            if (process.exitValue() != 0) {
                String log = Files.readString(output).strip();
                throw new IOException(program + " failed with exit code " + process.exitValue() + ": "
                        + log.substring(Math.max(0, log.length() - 2000)));
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IOException(program + " was interrupted", interrupted);
        } finally {
            if (outputFile == null) {
                Files.deleteIfExists(output);
            }
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (running) {
                running = false;
                run(options.startTimeout(), null, "pg_ctl", "stop", "-D", cluster.toString(), "-m", "fast", "-w",
                        "-t", Long.toString(options.startTimeout().toSeconds()));
                log.atInfo().addKeyValue("cluster", cluster.toAbsolutePath().toString()).log("embedded PostgreSQL stopped");
            }
        } catch (IOException failure) {
            log.atError().setCause(failure).log("embedded PostgreSQL did not stop cleanly");
        } finally {
            try {
                if (lock.isValid()) {
                    lock.release();
                }
                lockChannel.close();
            } catch (IOException ignored) {
                // the lock dies with the channel anyway
            }
        }
    }
}

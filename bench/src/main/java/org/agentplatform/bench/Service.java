package org.agentplatform.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The service as a user runs it: {@code java -jar agent-platform.jar} on a fresh data directory with its
 * embedded PostgreSQL. Knows the process ids of the JVM and of the PostgreSQL server, so their CPU time
 * can be read from {@code /proc}.
 */
final class Service implements AutoCloseable {

    private static final long TICKS_PER_SECOND = 100;

    private final Process process;
    private final Path dataDir;
    private final int port;

    private Service(Process process, Path dataDir, int port) {
        this.process = process;
        this.dataDir = dataDir;
        this.port = port;
    }

    /**
     * The JVM options every service the bench starts runs with (a profile's stack depth): an ahead-of-time cache must be
     * trained with them too, or the JVM opens it and then cannot map it (the modules they add differ).
     */
    static final List<String> JVM_OPTIONS = List.of("-XX:FlightRecorderOptions=stackdepth=512");

    /** Starts the jar and waits until it answers its health check. */
    static Service start(Path jar, List<String> javaOptions, Path dataDir, Path log, List<String> settings)
            throws IOException, InterruptedException {
        return start(jar, javaOptions, dataDir, log, settings, true);
    }

    /**
     * Another node of {@code first}'s service: the jar on a data directory of its own, on {@code first}'s embedded
     * PostgreSQL and vault key, as an operator runs a second node on one database.
     */
    static Service secondNode(Service first, Path jar, List<String> javaOptions, Path dataDir, Path log, List<String> settings)
            throws IOException, InterruptedException {
        List<String> shared = new ArrayList<>(List.of(
                "--agent-platform.database.url=" + first.jdbcUrl("agent_platform"),
                "--agent-platform.database.user=postgres",
                "--agent-platform.database.password=" + first.postgresPassword(),
                "--agent-platform.secrets.key=" + Files.readString(first.dataDir.resolve("secret.key"), StandardCharsets.US_ASCII).strip()));
        shared.addAll(settings);
        return start(jar, javaOptions, dataDir, log, shared, false);
    }

    private static Service start(Path jar, List<String> javaOptions, Path dataDir, Path log, List<String> settings, boolean first)
            throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JVM_OPTIONS);
        command.addAll(javaOptions);
        command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port, "--agent-platform.data-dir=" + dataDir,
                "--logging.structured.format.console="));
        command.addAll(settings);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Service service = new Service(process, dataDir, port);
        service.awaitHealthy(Duration.ofMinutes(3), first);
        return service;
    }

    int port() {
        return port;
    }

    String firstKey() throws IOException {
        return Files.readString(dataDir.resolve("first-api-key"), StandardCharsets.US_ASCII).strip();
    }

    long pid() {
        return process.pid();
    }

    /** The embedded PostgreSQL: {@code jdbc:postgresql://127.0.0.1:<port>/<database>} and its superuser's password. */
    String jdbcUrl(String database) throws IOException {
        return "jdbc:postgresql://127.0.0.1:" + postgresPort() + "/" + database;
    }

    int postgresPort() throws IOException {
        return Integer.parseInt(Files.readAllLines(dataDir.resolve("postgres").resolve("postmaster.pid")).get(3).strip());
    }

    String postgresPassword() throws IOException {
        return Files.readString(dataDir.resolve("postgres.password"), StandardCharsets.US_ASCII).strip();
    }

    /** CPU seconds the service's JVM has used so far. */
    double jvmCpuSeconds() {
        return cpuSeconds(process.pid(), false);
    }

    /** CPU seconds PostgreSQL has used so far: the server and its backends, live and ended. */
    double postgresCpuSeconds() throws IOException {
        long postmaster = Long.parseLong(Files.readAllLines(dataDir.resolve("postgres").resolve("postmaster.pid")).getFirst().strip());
        double total = cpuSeconds(postmaster, true);
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path entry : processes.filter(path -> path.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                long[] stat = stat(Long.parseLong(entry.getFileName().toString()));
                if (stat != null && stat[0] == postmaster) {
                    total += (stat[1] + stat[2]) / (double) TICKS_PER_SECOND;
                }
            }
        }
        return total;
    }

    /** Resident memory of the JVM, in bytes. */
    long residentBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }

    /** Asks the JVM for a full collection ({@code jcmd GC.run}), so heap figures compare live data. */
    void collectGarbage() throws IOException, InterruptedException {
        jcmd("GC.run");
    }

    /** Starts a JFR profile of the service (the measured phases only, not its start). */
    void startProfile() throws IOException, InterruptedException {
        jcmd("JFR.start", "name=bench", "settings=profile");
    }

    void stopProfile(Path file) throws IOException, InterruptedException {
        jcmd("JFR.stop", "name=bench", "filename=" + file.toAbsolutePath());
    }

    private void jcmd(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(process.pid())));
        command.addAll(List.of(arguments));
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
                .waitFor(60, TimeUnit.SECONDS);
    }

    private static double cpuSeconds(long pid, boolean withReapedChildren) {
        long[] stat = stat(pid);
        if (stat == null) {
            return 0;
        }
        long ticks = stat[1] + stat[2] + (withReapedChildren ? stat[3] + stat[4] : 0);
        return ticks / (double) TICKS_PER_SECOND;
    }

    /** {ppid, utime, stime, cutime, cstime} of a process, null when it is gone. */
    private static long[] stat(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields[0] is the state (field 3 of proc(5)): ppid is field 4, utime..cstime fields 14..17
            return new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[11]), Long.parseLong(fields[12]),
                    Long.parseLong(fields[13]), Long.parseLong(fields[14])};
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }

    /** Healthy, and when it is the first node, with the first owner's key written. */
    private void awaitHealthy(Duration patience, boolean first) throws InterruptedException, IOException {
        Instant giveUp = Instant.now().plus(patience);
        while (Instant.now().isBefore(giveUp)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("The service exited with " + process.exitValue() + " while starting; see its log");
            }
            try (HttpConnection health = new HttpConnection("127.0.0.1", port, null)) {
                if (health.get("/actuator/health").status() == 200 && (!first || Files.exists(dataDir.resolve("first-api-key")))) {
                    return;
                }
            } catch (UncheckedIOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("The service did not become healthy within " + patience);
    }

    /** SIGKILL: the JVM dies at once, releasing nothing (its PostgreSQL ends with it). */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    Path dataDir() {
        return dataDir;
    }

    /** Stops it as Ctrl-C does (SIGTERM) and waits for it to finish. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

package org.agentplatform.infra.local.terminal;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.agentplatform.api.terminal.Terminals;
import org.agentplatform.command.terminal.TerminalHost;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalCommand.Attachment;
import org.agentplatform.kernel.terminal.TerminalCommand.EndTerminal;
import org.agentplatform.kernel.terminal.TerminalEnd;
import org.agentplatform.kernel.terminal.TerminalId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local provider's terminals: each a real shell on a PTY on this host, run as the service's user in its instance's
 * workspace ({@code <data dir>/instances/<id>/workspace}, also its {@code HOME}), with an environment of its own that
 * holds none of the service's settings or secrets. A shell that exits ends its terminal.
 */
public final class LocalTerminals implements Terminals, TerminalHost, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalTerminals.class);
    private static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    private static final int ENDED_REMEMBERED = 10_000;

    private final Path instancesDir;
    private final String shell;
    private final int scrollback;
    private final Consumer<Object> reports;
    private final boolean available;
    private final Map<TerminalId, Pty> running = new ConcurrentHashMap<>();
    /** Terminals that ended while no shell ran here: a connection that redeemed its ticket just before must not start one. */
    private final Set<TerminalId> endedUnstarted = Collections.newSetFromMap(Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<TerminalId, Boolean> eldest) {
            return size() > ENDED_REMEMBERED;
        }
    }));

    /**
     * @param shell      the shell to run; blank for the service user's login shell
     * @param scrollback how many bytes of recent output a new connection sees first
     * @param reports    where a shell's exit is sent as a command
     */
    public LocalTerminals(Path dataDir, String shell, int scrollback, Consumer<Object> reports) {
        this.instancesDir = dataDir.toAbsolutePath().resolve("instances");
        this.shell = shell == null || shell.isBlank() ? loginShell() : shell;
        this.scrollback = scrollback;
        this.reports = reports;
        this.available = onPath("script") && onPath("stty");
    }

    @Override
    public boolean available() {
        return available;
    }

    @Override
    public Connection connect(Attachment attachment, int cols, int rows) {
        Pty pty = running.get(attachment.terminalId());
        if (pty == null) {
            if (attachment.resumed()) {
                throw new Lost("the terminal's shell is gone (the service that ran it restarted)");
            }
            if (endedUnstarted.contains(attachment.terminalId())) {
                throw new Lost("the terminal ended before its shell started");
            }
            pty = running.computeIfAbsent(attachment.terminalId(), terminal -> start(attachment, cols, rows));
            if (endedUnstarted.contains(attachment.terminalId()) && running.remove(attachment.terminalId(), pty)) {
                pty.end(new Closing(1001, "ended: the terminal ended while its shell started"));
            }
        }
        return pty.attach();
    }

    @Override
    public void end(TerminalId terminal, TerminalEnd reason) {
        Pty pty = running.remove(terminal);
        if (pty == null) {
            endedUnstarted.add(terminal);
        } else {
            pty.end(new Closing(reason == TerminalEnd.CLOSED ? 1000 : 1001, reason.wireName() + ": the terminal ended"));
        }
    }

    @Override
    public void discard(InstanceId instance) {
        Path workspace = instancesDir.resolve(instance.toString());
        if (!Files.exists(workspace)) {
            return;
        }
        try (Stream<Path> files = Files.walk(workspace)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException | UncheckedIOException failure) {
            log.atWarn().addKeyValue("instance_id", instance.toString()).log("workspace not removed: " + failure.getMessage());
        }
    }

    /** Ends every shell of this node (the service stops): their terminals are lost. */
    @Override
    public void close() {
        running.values().forEach(pty -> pty.end(new Closing(1001, "shutdown: the service is stopping")));
        running.clear();
    }

    private Pty start(Attachment attachment, int cols, int rows) {
        try {
            Path workspace = workspace(attachment.instanceId());
            ProcessBuilder builder = new ProcessBuilder("script", "--quiet", "--flush", "--return", "--command",
                    "stty cols " + cols + " rows " + rows + " 2>/dev/null; exec '" + shell.replace("'", "'\\''") + "' -i", "/dev/null")
                    .directory(workspace.toFile())
                    .redirectErrorStream(true);
            Map<String, String> environment = builder.environment();
            environment.clear();
            environment.putAll(ShellEnvironment.of(attachment, workspace, shell, System.getProperty("user.name"), PATH));
            Pty pty = Pty.start(attachment.terminalId(), builder, scrollback, status -> {
                running.remove(attachment.terminalId());
                reports.accept(new EndTerminal(attachment.terminalId(), null, TerminalEnd.SHELL_EXITED, status));
            });
            log.atInfo().addKeyValue("terminal_id", attachment.terminalId().toString())
                    .addKeyValue("instance_id", attachment.instanceId().toString()).log("terminal shell started");
            return pty;
        } catch (IOException failure) {
            throw new UncheckedIOException("The terminal's shell could not start", failure);
        }
    }

    private Path workspace(InstanceId instance) throws IOException {
        Path workspace = instancesDir.resolve(instance.toString()).resolve("workspace");
        if (!Files.isDirectory(workspace)) {
            Files.createDirectories(workspace);
            try {
                Files.setPosixFilePermissions(workspace, PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException notPosix) {
                // the directory's default permissions then
            }
        }
        return workspace;
    }

    /** The service user's login shell from {@code /etc/passwd}, else bash, else sh. */
    private static String loginShell() {
        String user = System.getProperty("user.name");
        try (Stream<String> lines = Files.lines(Path.of("/etc/passwd"))) {
            String found = lines.map(line -> line.split(":"))
                    .filter(fields -> fields.length >= 7 && fields[0].equals(user) && Files.isExecutable(Path.of(fields[6])))
                    .map(fields -> fields[6])
                    .filter(candidate -> !candidate.endsWith("nologin") && !candidate.endsWith("false"))
                    .findFirst().orElse(null);
            if (found != null) {
                return found;
            }
        } catch (IOException | UncheckedIOException unreadable) {
            // the fallbacks then
        }
        return Files.isExecutable(Path.of("/bin/bash")) ? "/bin/bash" : "/bin/sh";
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return Stream.of((path == null ? PATH : path).split(File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, program)));
    }
}

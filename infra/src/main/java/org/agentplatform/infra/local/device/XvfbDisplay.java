package org.agentplatform.infra.local.device;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.agentplatform.api.control.DeviceAction;
import org.agentplatform.api.control.Devices;

/**
 * A real X display: one {@code Xvfb} per running linux instance (its framebuffer kept as an XWD file, which the
 * screenshots read), driven through {@code xdotool}. A user can start programs on it ({@code DISPLAY=:<n> xterm})
 * and see them in the screenshots. It is stopped with the instance.
 */
final class XvfbDisplay implements Device {

    static final int WIDTH = 1280;
    static final int HEIGHT = 800;
    private static final Duration START_PATIENCE = Duration.ofSeconds(10);
    private static final Duration COMMAND_PATIENCE = Duration.ofSeconds(10);

    private final int display;
    private final Path framebuffer;
    private final Process server;

    private XvfbDisplay(int display, Path framebuffer, Process server) {
        this.display = display;
        this.framebuffer = framebuffer;
        this.server = server;
    }

    /** Whether {@code Xvfb} and {@code xdotool} are on the PATH. */
    static boolean available() {
        return onPath("Xvfb") && onPath("xdotool");
    }

    /** Starts a display on the first free number from {@code first}. */
    static XvfbDisplay start(int first) {
        for (int display = first; display < first + 200; display++) {
            if (Files.exists(Path.of("/tmp/.X" + display + "-lock")) || Files.exists(Path.of("/tmp/.X11-unix/X" + display))) {
                continue;
            }
            try {
                Path directory = Files.createTempDirectory("agent-platform-xvfb-");
                Process server = new ProcessBuilder("Xvfb", ":" + display, "-screen", "0", WIDTH + "x" + HEIGHT + "x24", "-fbdir",
                        directory.toString(), "-nolisten", "tcp", "-noreset")
                        .redirectErrorStream(true).redirectOutput(directory.resolve("xvfb.log").toFile()).start();
                XvfbDisplay started = new XvfbDisplay(display, directory.resolve("Xvfb_screen0"), server);
                if (started.awaitReady()) {
                    return started;
                }
                started.close();
            } catch (IOException failure) {
                throw new UncheckedIOException(failure);
            }
        }
        throw new IllegalStateException("No free X display to start Xvfb on");
    }

    /** The display's name ({@code :93}), for programs a user starts on it. */
    String name() {
        return ":" + display;
    }

    @Override
    public Devices.Screen screen() {
        String location = xdotool("getmouselocation", "--shell");
        int x = 0;
        int y = 0;
        for (String line : location.split("\n")) {
            if (line.startsWith("X=")) {
                x = Integer.parseInt(line.substring(2).strip());
            } else if (line.startsWith("Y=")) {
                y = Integer.parseInt(line.substring(2).strip());
            }
        }
        return new Devices.Screen(WIDTH, HEIGHT, new Devices.Point(x, y), null, null, name());
    }

    @Override
    public Devices.Screenshot screenshot() {
        try (FileChannel channel = FileChannel.open(framebuffer, StandardOpenOption.READ)) {
            ByteBuffer dump = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            BufferedImage image = Xwd.read(dump);
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            ImageIO.write(image, "png", png);
            return new Devices.Screenshot(image.getWidth(), image.getHeight(), png.toByteArray());
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /**
     * Performs the action with one xdotool run. A move is not waited for ({@code mousemove --sync} waits for pointer
     * motion, which never comes when the pointer is already there: a click where it stood hung until the route's timeout):
     * the warp and the clicks after it go over one X connection, which the server handles in order, and xdotool's exit
     * waits until the server has handled them.
     */
    @Override
    public void perform(DeviceAction action) {
        switch (action) {
            case DeviceAction.Click click -> xdotool("mousemove", Integer.toString(click.x()), Integer.toString(click.y()),
                    "click", "--repeat", Integer.toString(click.clicks()), switch (click.button()) {
                        case "right" -> "3";
                        case "middle" -> "2";
                        default -> "1";
                    });
            case DeviceAction.Move move -> xdotool("mousemove", Integer.toString(move.x()), Integer.toString(move.y()));
            case DeviceAction.Scroll scroll -> {
                List<String> arguments = new ArrayList<>();
                if (scroll.x() != null) {
                    arguments.addAll(List.of("mousemove", Integer.toString(scroll.x()), Integer.toString(scroll.y())));
                }
                if (scroll.dy() != 0) {
                    arguments.addAll(List.of("click", "--repeat", Integer.toString(Math.abs(scroll.dy())), scroll.dy() < 0 ? "4" : "5"));
                }
                if (scroll.dx() != 0) {
                    arguments.addAll(List.of("click", "--repeat", Integer.toString(Math.abs(scroll.dx())), scroll.dx() < 0 ? "6" : "7"));
                }
                xdotool(arguments.toArray(String[]::new));
            }
            case DeviceAction.Type type -> xdotool("type", "--delay", "0", "--", type.text());
            case DeviceAction.Key key -> {
                List<String> arguments = new ArrayList<>(List.of("key", "--"));
                arguments.addAll(key.keys());
                xdotool(arguments.toArray(String[]::new));
            }
            default -> throw new IllegalArgumentException("A desktop has no " + action.action().wireName());
        }
    }

    @Override
    public boolean isAlive() {
        return server.isAlive();
    }

    @Override
    public void close() {
        server.destroy();
        try {
            if (!server.waitFor(5, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(framebuffer.getParent())) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }

    private boolean awaitReady() {
        Instant giveUp = Instant.now().plus(START_PATIENCE);
        while (Instant.now().isBefore(giveUp) && server.isAlive()) {
            if (Files.exists(framebuffer)) {
                try {
                    xdotool("getmouselocation");
                    return true;
                } catch (IllegalStateException notYet) {
                    // the server is still starting
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Runs xdotool on this display (its arguments as given: no shell); its output, or an error when it fails. */
    private String xdotool(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add("xdotool");
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().put("DISPLAY", name());
        builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            // its output is a few lines, which the pipe holds: wait first, so a hung xdotool is stopped, not waited on forever
            if (!process.waitFor(COMMAND_PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("xdotool did not finish in time");
            }
            String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("xdotool failed (" + process.exitValue() + "): " + text.strip());
            }
            return text;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", interrupted);
        }
    }

    private static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String directory : path.split(java.io.File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
                return true;
            }
        }
        return false;
    }
}

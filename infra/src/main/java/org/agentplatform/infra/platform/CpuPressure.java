package org.agentplatform.infra.platform;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How much of the time the machine's runnable work waits for a core, smoothed: Linux's CPU pressure
 * ({@code /proc/pressure/cpu}, its {@code some} line: the share of wall time in which at least one runnable task waited),
 * else the machine's CPU load as the JVM reads it ({@code com.sun.management.OperatingSystemMXBean#getCpuLoad}), else
 * unknown (NaN). The service, its embedded PostgreSQL and whatever else runs beside them all count: what a request feels
 * is the machine's. On the box of {@code docs/performance.md} the pressure is about 0.03 at rest and 0.85-0.93 with the
 * node at its edge. {@link #sample} is called by one thread, every 100 ms on a node; each sample weighs {@value #NEWEST}
 * in the smoothed value, so it follows a change within about half a second.
 */
public final class CpuPressure {

    private static final Logger log = LoggerFactory.getLogger(CpuPressure.class);
    /** The weight of the newest sample in the smoothed value. */
    static final double NEWEST = 0.3;
    private static final Path PSI = Path.of("/proc/pressure/cpu");
    private static final Source NONE = new Load("nowhere (unknown)", OptionalDouble::empty);

    /** Where the samples come from: a counter of the time stalled so far, or a load read as it is; named in the log. */
    sealed interface Source permits StallCounter, Load {

        String name();
    }

    /** The stalled time so far, in microseconds; empty when it cannot be read. */
    record StallCounter(String name, Supplier<OptionalLong> micros) implements Source {
    }

    /** The load now, 0 to 1; empty when it cannot be read. */
    record Load(String name, Supplier<OptionalDouble> now) implements Source {
    }

    private final Source source;
    private final LongSupplier nanoTime;
    private volatile double value = Double.NaN;
    // the sampling thread's own
    private long stalledBefore = -1;
    private long sampledBefore;

    CpuPressure(Source source, LongSupplier nanoTime) {
        this.source = source;
        this.nanoTime = nanoTime;
    }

    /** This machine's: its CPU pressure where the kernel keeps it, else its CPU load, else none. */
    public static CpuPressure ofThisMachine() {
        Source source = pressureStallInformation().or(CpuPressure::cpuLoad).orElse(NONE);
        log.atInfo().addKeyValue("source", source.name()).log("where the machine's CPU pressure is read from");
        return new CpuPressure(source, System::nanoTime);
    }

    /** The smoothed pressure (0 to 1), NaN until the second sample of a counter or when the machine does not say. */
    public double value() {
        return value;
    }

    /** Reads the source once and folds it into the smoothed value. */
    public void sample() {
        switch (source) {
            case StallCounter counter -> counter.micros().get().ifPresent(this::stalled);
            case Load load -> load.now().get().ifPresent(this::fold);
        }
    }

    /** A counter's reading: the share of the wall time since the one before that it grew by. */
    private void stalled(long micros) {
        long now = nanoTime.getAsLong();
        if (stalledBefore >= 0 && now > sampledBefore) {
            fold(Math.clamp((micros - stalledBefore) * 1_000.0 / (now - sampledBefore), 0, 1));
        }
        stalledBefore = micros;
        sampledBefore = now;
    }

    private void fold(double share) {
        double before = value;
        value = Double.isNaN(before) ? share : before + NEWEST * (share - before);
    }

    /** The {@code total=} of the {@code some} line of a {@code /proc/pressure/cpu}; empty when the text has none. */
    static OptionalLong someTotal(String pressure) {
        for (String line : pressure.lines().toList()) {
            if (line.startsWith("some ")) {
                int at = line.indexOf("total=");
                if (at >= 0) {
                    try {
                        return OptionalLong.of(Long.parseLong(line.substring(at + "total=".length()).trim()));
                    } catch (NumberFormatException unreadable) {
                        return OptionalLong.empty();
                    }
                }
            }
        }
        return OptionalLong.empty();
    }

    /** The kernel's pressure stall information, when it keeps it and it can be read. */
    private static Optional<Source> pressureStallInformation() {
        return read().isPresent() ? Optional.of(new StallCounter(PSI.toString(), CpuPressure::read)) : Optional.empty();
    }

    private static OptionalLong read() {
        try {
            return someTotal(Files.readString(PSI));
        } catch (IOException | RuntimeException unreadable) {
            // no PSI (not Linux, a kernel without it, or turned off): another source is used
            return OptionalLong.empty();
        }
    }

    /** The machine's CPU load as the JVM reads it, when it can (negative until it can tell). */
    private static Optional<Source> cpuLoad() {
        if (!(ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean system)) {
            return Optional.empty();
        }
        return Optional.of(new Load("the machine's CPU load", () -> {
            double load = system.getCpuLoad();
            return load < 0 ? OptionalDouble.empty() : OptionalDouble.of(load);
        }));
    }
}

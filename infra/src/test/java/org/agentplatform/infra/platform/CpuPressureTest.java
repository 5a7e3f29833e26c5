package org.agentplatform.infra.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The machine's CPU pressure: read from the kernel's stall counter as the share of wall time stalled between two samples,
 * or from a load read as it is, smoothed; unknown until the machine has said something.
 */
class CpuPressureTest {

    private static final String PSI = """
            some avg10=12.50 avg60=3.20 avg300=0.90 total=123456789
            full avg10=0.00 avg60=0.00 avg300=0.00 total=0
            """;

    @Test
    void theStalledTotalIsTheSomeLines() {
        assertThat(CpuPressure.someTotal(PSI)).hasValue(123456789);
        assertThat(CpuPressure.someTotal("full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n")).isEmpty();
        assertThat(CpuPressure.someTotal("some avg10=0.00 total=many\n")).isEmpty();
        assertThat(CpuPressure.someTotal("")).isEmpty();
    }

    @Test
    void aCounterGivesTheShareOfWallTimeStalledSmoothed() {
        Counter counter = new Counter();
        CpuPressure pressure = new CpuPressure(new CpuPressure.StallCounter("a counter", counter::stalled), counter::nanoTime);
        counter.after(0, 0);
        pressure.sample();
        assertThat(pressure.value()).as("one reading is no share yet").isNaN();
        // 100 ms, of which 80 ms stalled: 0.8
        counter.after(100_000_000L, 80_000);
        pressure.sample();
        assertThat(pressure.value()).isCloseTo(0.8, within(1e-9));
        // then none stalled: it falls by a part of the way each sample
        counter.after(100_000_000L, 0);
        pressure.sample();
        assertThat(pressure.value()).isCloseTo(0.8 * (1 - CpuPressure.NEWEST), within(1e-9));
        for (int sample = 0; sample < 20; sample++) {
            counter.after(100_000_000L, 0);
            pressure.sample();
        }
        assertThat(pressure.value()).isLessThan(0.01);
        // a counter read twice within a tick changes nothing; more stalled than wall time (several cores) counts as all
        counter.after(0, 0);
        pressure.sample();
        counter.after(100_000_000L, 250_000);
        pressure.sample();
        assertThat(pressure.value()).isLessThanOrEqualTo(1).isGreaterThan(CpuPressure.NEWEST - 0.01);
    }

    @Test
    void aLoadIsTakenAsItIsAndNoneLeavesItUnknown() {
        Deque<OptionalDouble> loads = new ArrayDeque<>();
        CpuPressure pressure = new CpuPressure(new CpuPressure.Load("loads", loads::pop), System::nanoTime);
        loads.add(OptionalDouble.empty());
        loads.add(OptionalDouble.of(0.5));
        loads.add(OptionalDouble.of(1.0));
        pressure.sample();
        assertThat(pressure.value()).isNaN();
        pressure.sample();
        assertThat(pressure.value()).isEqualTo(0.5);
        pressure.sample();
        assertThat(pressure.value()).isCloseTo(0.5 + CpuPressure.NEWEST * 0.5, within(1e-9));
    }

    @Test
    void thisMachinesIsReadWhereTheKernelKeepsIt() {
        assumeTrue(Files.isReadable(Path.of("/proc/pressure/cpu")), "a kernel with pressure stall information");
        CpuPressure pressure = CpuPressure.ofThisMachine();
        pressure.sample();
        pressure.sample();
        assertThat(pressure.value()).isBetween(0.0, 1.0);
    }

    /** A stall counter and a clock the test moves together. */
    private static final class Counter {

        private long nanos;
        private long stalled;

        void after(long wallNanos, long stalledMicros) {
            nanos += wallNanos;
            stalled += stalledMicros;
        }

        long nanoTime() {
            return nanos;
        }

        OptionalLong stalled() {
            return OptionalLong.of(stalled);
        }
    }
}

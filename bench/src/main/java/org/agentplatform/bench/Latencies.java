package org.agentplatform.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** Latencies recorded from many threads, in microseconds, summarised in milliseconds. */
final class Latencies {

    private final Recorder recorder = new Recorder(3);
    private Histogram total;

    void record(long startNanos, long endNanos) {
        recorder.recordValue(Math.max(1, (endNanos - startNanos) / 1_000));
    }

    /** Everything recorded so far (and since the last call: it accumulates). */
    synchronized Summary summary() {
        Histogram interval = recorder.getIntervalHistogram();
        if (total == null) {
            total = interval.copy();
        } else {
            total.add(interval);
        }
        return new Summary(total.getTotalCount(), ms(total.getValueAtPercentile(50)), ms(total.getValueAtPercentile(90)),
                ms(total.getValueAtPercentile(99)), ms(total.getMaxValue()));
    }

    private static double ms(long micros) {
        return Math.round(micros / 10.0) / 100.0;
    }

    /** Count and percentiles in milliseconds. */
    record Summary(long count, double p50, double p90, double p99, double max) {

        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("count", count);
            json.put("p50_ms", p50);
            json.put("p90_ms", p90);
            json.put("p99_ms", p99);
            json.put("max_ms", max);
            return json;
        }

        @Override
        public String toString() {
            return String.format("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms (n=%d)", p50, p90, p99, count);
        }
    }
}

package org.agentplatform.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The run's figures: a table (measured, the target it must reach, the ratio to raw PostgreSQL inserts
 * of the same run) and the same as JSON with every detail.
 */
final class Report {

    /** One line of the table; {@code target} empty when the figure has none. */
    record Line(String figure, double value, String unit, String target, Boolean met, boolean ratioToRaw) {
    }

    private final Map<String, Object> json = new LinkedHashMap<>();
    private final List<Line> lines = new ArrayList<>();
    private double rawTxPerSecond = Double.NaN;

    void put(String key, Object value) {
        json.put(key, value);
    }

    void raw(double txPerSecond) {
        rawTxPerSecond = txPerSecond;
    }

    /** A figure where more is better, e.g. a rate; {@code atLeast} null when it has no target. */
    void atLeast(String figure, double value, String unit, Double atLeast, boolean ratioToRaw) {
        lines.add(new Line(figure, value, unit, atLeast == null ? "" : ">= " + number(atLeast), atLeast == null ? null : value >= atLeast,
                ratioToRaw));
    }

    /** A figure where less is better, e.g. a latency. */
    void atMost(String figure, double value, String unit, Double atMost) {
        lines.add(new Line(figure, value, unit, atMost == null ? "" : "<= " + number(atMost), atMost == null ? null : value <= atMost,
                false));
    }

    boolean allMet() {
        return lines.stream().allMatch(line -> line.met() == null || line.met());
    }

    void print(PrintStream out) {
        out.println();
        out.printf("%-72s %12s %-7s %-12s %-5s %s%n", "figure", "measured", "", "must reach", "met", "ratio to raw inserts");
        out.println("-".repeat(128));
        for (Line line : lines) {
            String ratio = line.ratioToRaw() && rawTxPerSecond > 0 && !Double.isNaN(line.value())
                    ? String.format("%.3f", line.value() / rawTxPerSecond) : "";
            String met = line.met() == null ? "" : line.met() ? "yes" : "NO";
            out.printf("%-72s %12s %-7s %-12s %-5s %s%n", line.figure(), number(line.value()), line.unit(), line.target(), met, ratio);
        }
        out.println();
    }

    void write(Path file) throws IOException {
        List<Map<String, Object>> table = new ArrayList<>();
        for (Line line : lines) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("figure", line.figure());
            row.put("value", line.value());
            row.put("unit", line.unit());
            row.put("target", line.target());
            row.put("met", line.met());
            if (line.ratioToRaw() && rawTxPerSecond > 0 && !Double.isNaN(line.value())) {
                row.put("ratio_to_raw_inserts", line.value() / rawTxPerSecond);
            }
            table.add(row);
        }
        Map<String, Object> document = new LinkedHashMap<>(json);
        document.put("table", table);
        document.put("all_targets_met", allMet());
        Files.writeString(file, JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValueAsString(document));
    }

    private static String number(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return Math.abs(value) >= 100 ? String.format("%,.0f", value) : String.format("%.2f", value);
    }
}

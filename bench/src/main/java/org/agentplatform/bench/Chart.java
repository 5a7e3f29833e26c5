package org.agentplatform.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/** The latency-vs-load curve as a PNG: create latency p50 and p99 (log scale) against the achieved rate. */
final class Chart {

    /** One step of the curve: offered and achieved rate, and the latencies at it. */
    record Point(double offered, double achieved, double p50, double p99) {
    }

    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    private static final int LEFT = 80;
    private static final int RIGHT = 40;
    private static final int TOP = 60;
    private static final int BOTTOM = 70;

    private Chart() {
    }

    static void write(List<Point> points, String title, Path file) throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        double maxRate = points.stream().mapToDouble(point -> Math.max(point.offered(), point.achieved())).max().orElse(1) * 1.05;
        double maxLatency = Math.max(10, points.stream().mapToDouble(Point::p99).max().orElse(10) * 1.5);
        double minLatency = 0.1;
        int plotWidth = WIDTH - LEFT - RIGHT;
        int plotHeight = HEIGHT - TOP - BOTTOM;

        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.setColor(Color.BLACK);
        g.drawString(title, LEFT, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (double tick = minLatency; tick <= maxLatency; tick *= 10) {
            for (int multiple : new int[] {1, 2, 5}) {
                double value = tick * multiple;
                if (value > maxLatency) {
                    break;
                }
                int y = y(value, minLatency, maxLatency, plotHeight);
                g.setColor(new Color(230, 230, 230));
                g.drawLine(LEFT, y, LEFT + plotWidth, y);
                g.setColor(Color.DARK_GRAY);
                g.drawString(value < 1 ? String.format("%.1f", value) : String.format("%.0f", value), LEFT - 45, y + 4);
            }
        }
        for (int step = 0; step <= 10; step++) {
            double rate = maxRate * step / 10;
            int x = LEFT + (int) (plotWidth * rate / maxRate);
            g.setColor(new Color(230, 230, 230));
            g.drawLine(x, TOP, x, TOP + plotHeight);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format("%.0f", rate), x - 12, TOP + plotHeight + 18);
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, TOP, plotWidth, plotHeight);
        g.drawString("achieved creates per second (POST /agents/{id}/tasks, open loop)", LEFT + plotWidth / 2 - 190, HEIGHT - 25);
        g.rotate(-Math.PI / 2);
        g.drawString("latency, ms (log scale)", -(TOP + plotHeight / 2 + 60), 20);
        g.rotate(Math.PI / 2);

        line(g, points, true, new Color(31, 119, 180), minLatency, maxLatency, maxRate, plotWidth, plotHeight);
        line(g, points, false, new Color(214, 39, 40), minLatency, maxLatency, maxRate, plotWidth, plotHeight);
        g.setColor(new Color(31, 119, 180));
        g.drawString("p50", LEFT + plotWidth - 80, TOP + 20);
        g.setColor(new Color(214, 39, 40));
        g.drawString("p99", LEFT + plotWidth - 80, TOP + 36);
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static void line(Graphics2D g, List<Point> points, boolean median, Color color, double minLatency, double maxLatency,
            double maxRate, int plotWidth, int plotHeight) {
        g.setColor(color);
        g.setStroke(new BasicStroke(2f));
        int previousX = -1;
        int previousY = -1;
        for (Point point : points) {
            int x = LEFT + (int) (plotWidth * point.achieved() / maxRate);
            int y = y(median ? point.p50() : point.p99(), minLatency, maxLatency, plotHeight);
            g.fillOval(x - 4, y - 4, 8, 8);
            if (previousX >= 0) {
                g.drawLine(previousX, previousY, x, y);
            }
            previousX = x;
            previousY = y;
        }
    }

    private static int y(double latency, double min, double max, int plotHeight) {
        double clamped = Math.max(min, Math.min(max, latency));
        double fraction = (Math.log10(clamped) - Math.log10(min)) / (Math.log10(max) - Math.log10(min));
        return TOP + plotHeight - (int) (plotHeight * fraction);
    }
}

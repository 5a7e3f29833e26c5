package org.agentplatform.infra.local.device;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.imageio.ImageIO;
import org.agentplatform.api.control.DeviceAction;
import org.agentplatform.api.control.Devices;
import org.agentplatform.kernel.instance.InstanceKind;

/**
 * A device drawn with Java2D that keeps real state, so each screenshot shows the effect of the actions before it.
 * A desktop (1280x800): a pointer, a text field (focused by a click on it; typed text shows in it, {@code Return}
 * moves it to the list of entries, {@code BackSpace} deletes), a scrollable document, the last action. An android
 * phone (720x1280): the home screen of app icons (a tap opens one), an app with its own text field and scrollable
 * list, the recents screen, back, the screen turned off by power, the volume.
 */
final class VirtualScreen implements Device {

    private static final int FIELD_X = 40;
    private static final int FIELD_HEIGHT = 48;
    private static final int LINE_HEIGHT = 28;
    private static final int DOCUMENT_LINES = 500;
    private static final List<String> APPS = List.of("Mail", "Maps", "Notes", "Camera", "Clock", "Music", "Files", "Chat", "Shop",
            "News", "Photos", "Settings");

    private final boolean desktop;
    private final int width;
    private final int height;
    private int pointerX;
    private int pointerY;
    private boolean focused = true;
    private final StringBuilder field = new StringBuilder();
    private final List<String> entries = new ArrayList<>();
    private int scrollX;
    private int scrollY;
    private String lastAction = "ready";
    // android
    private String screenName = "home";
    private final Deque<String> back = new ArrayDeque<>();
    private final List<String> recents = new ArrayList<>();
    private boolean screenOn = true;
    private int volume = 7;

    VirtualScreen(InstanceKind kind) {
        this.desktop = kind.isDesktop();
        this.width = desktop ? 1280 : 720;
        this.height = desktop ? 800 : 1280;
        this.pointerX = width / 2;
        this.pointerY = height / 2;
    }

    @Override
    public synchronized Devices.Screen screen() {
        return desktop ? new Devices.Screen(width, height, new Devices.Point(pointerX, pointerY), null, null, null)
                : new Devices.Screen(width, height, null, "portrait", DeviceAction.PressButton.BUTTONS, null);
    }

    @Override
    public synchronized Devices.Screenshot screenshot() {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            if (desktop) {
                drawDesktop(g);
            } else {
                drawPhone(g);
            }
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", png);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
        return new Devices.Screenshot(width, height, png.toByteArray());
    }

    @Override
    public synchronized void perform(DeviceAction action) {
        switch (action) {
            case DeviceAction.Click click -> {
                pointAt(click.x(), click.y());
                focused = inField(click.x(), click.y());
                lastAction = click.button() + " click x" + click.clicks() + " at " + click.x() + "," + click.y();
            }
            case DeviceAction.Move move -> {
                pointAt(move.x(), move.y());
                lastAction = "moved to " + move.x() + "," + move.y();
            }
            case DeviceAction.Scroll scroll -> {
                if (scroll.x() != null) {
                    pointAt(scroll.x(), scroll.y());
                }
                scrollBy(scroll.dx() * LINE_HEIGHT, scroll.dy() * LINE_HEIGHT);
                lastAction = "scrolled " + scroll.dx() + "," + scroll.dy();
            }
            case DeviceAction.Type type -> {
                if (focused && screenOn) {
                    field.append(type.text().replace('\n', ' '));
                }
                lastAction = "typed " + type.text().codePointCount(0, type.text().length()) + " characters" + (focused ? "" : " (nothing focused)");
            }
            case DeviceAction.Key key -> {
                key.keys().forEach(this::press);
                lastAction = "pressed " + String.join(" ", key.keys());
            }
            case DeviceAction.Tap tap -> {
                pointAt(tap.x(), tap.y());
                tapAt(tap.x(), tap.y());
                lastAction = "tapped " + tap.x() + "," + tap.y();
            }
            case DeviceAction.Swipe swipe -> {
                scrollBy(swipe.x1() - swipe.x2(), swipe.y1() - swipe.y2());
                pointAt(swipe.x2(), swipe.y2());
                lastAction = "swiped " + swipe.x1() + "," + swipe.y1() + " -> " + swipe.x2() + "," + swipe.y2();
            }
            case DeviceAction.PressButton button -> {
                pressButton(button.button());
                lastAction = "pressed the " + button.button() + " button";
            }
        }
    }

    @Override
    public void close() {
        // nothing runs outside this object
    }

    private void pointAt(int x, int y) {
        pointerX = x;
        pointerY = y;
    }

    private int fieldY() {
        return desktop ? 80 : 200;
    }

    private boolean inField(int x, int y) {
        return x >= FIELD_X && x < width - FIELD_X && y >= fieldY() && y < fieldY() + FIELD_HEIGHT;
    }

    private void scrollBy(int dx, int dy) {
        scrollX = Math.max(0, scrollX + dx);
        scrollY = Math.max(0, Math.min(DOCUMENT_LINES * LINE_HEIGHT, scrollY + dy));
    }

    private void press(String key) {
        switch (key) {
            case "Return" -> {
                if (focused && !field.isEmpty()) {
                    entries.add(field.toString());
                    field.setLength(0);
                }
            }
            case "BackSpace" -> {
                if (focused && !field.isEmpty()) {
                    field.setLength(field.offsetByCodePoints(field.length(), -1));
                }
            }
            case "Escape" -> focused = false;
            case "Page_Down" -> scrollBy(0, height / 2);
            case "Page_Up" -> scrollBy(0, -height / 2);
            case "Down" -> scrollBy(0, LINE_HEIGHT);
            case "Up" -> scrollBy(0, -LINE_HEIGHT);
            case "space" -> {
                if (focused) {
                    field.append(' ');
                }
            }
            default -> {
                if (focused && key.length() == 1) {
                    field.append(key);
                }
            }
        }
    }

    private void tapAt(int x, int y) {
        if (!screenOn) {
            return;
        }
        switch (screenName) {
            case "home" -> {
                int app = appAt(x, y);
                if (app >= 0) {
                    open(APPS.get(app));
                }
            }
            case "recents" -> {
                int index = (y - 160) / 180;
                if (y >= 160 && index >= 0 && index < recents.size()) {
                    open(recents.get(recents.size() - 1 - index));
                }
            }
            default -> focused = inField(x, y);
        }
    }

    private int appAt(int x, int y) {
        int column = (x - 60) / 160;
        int row = (y - 200) / 200;
        if (x < 60 || y < 200 || column > 3 || row > 2) {
            return -1;
        }
        int index = row * 4 + column;
        return index < APPS.size() ? index : -1;
    }

    private void open(String app) {
        back.push(screenName);
        screenName = app;
        recents.remove(app);
        recents.add(app);
        scrollY = 0;
        focused = true;
    }

    private void pressButton(String button) {
        switch (button) {
            case "home" -> {
                back.clear();
                screenName = "home";
            }
            case "back" -> screenName = back.isEmpty() ? "home" : back.pop();
            case "recents" -> {
                back.push(screenName);
                screenName = "recents";
            }
            case "power" -> screenOn = !screenOn;
            case "volume_up" -> volume = Math.min(15, volume + 1);
            case "volume_down" -> volume = Math.max(0, volume - 1);
            default -> throw new IllegalArgumentException("No button " + button);
        }
    }

    private void drawDesktop(Graphics2D g) {
        g.setColor(new Color(0x2d3e50));
        g.fillRect(0, 0, width, height);
        g.setColor(new Color(0xecf0f1));
        g.fillRect(20, 20, width - 40, height - 60);
        g.setColor(new Color(0x34495e));
        g.fillRect(20, 20, width - 40, 40);
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString("Virtual desktop", 36, 47);
        drawField(g);
        drawDocument(g, 160, height - 80);
        g.setColor(new Color(0x2d3e50));
        g.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 16));
        g.drawString("last action: " + lastAction, 30, height - 16);
        drawPointer(g);
    }

    private void drawPhone(Graphics2D g) {
        if (!screenOn) {
            g.setColor(Color.BLACK);
            g.fillRect(0, 0, width, height);
            return;
        }
        g.setColor(new Color(0x1b2631));
        g.fillRect(0, 0, width, height);
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 24));
        g.drawString("12:00", 24, 40);
        g.drawString("vol " + volume, width - 120, 40);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 34));
        switch (screenName) {
            case "home" -> {
                g.drawString("Home", 40, 130);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 22));
                for (int index = 0; index < APPS.size(); index++) {
                    int x = 60 + (index % 4) * 160;
                    int y = 200 + (index / 4) * 200;
                    g.setColor(Color.getHSBColor(index / (float) APPS.size(), 0.6f, 0.9f));
                    g.fillRoundRect(x, y, 120, 120, 30, 30);
                    g.setColor(Color.WHITE);
                    g.drawString(APPS.get(index), x + 10, y + 150);
                }
            }
            case "recents" -> {
                g.drawString("Recent apps", 40, 130);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 28));
                for (int index = 0; index < recents.size(); index++) {
                    int y = 160 + index * 180;
                    g.setColor(new Color(0x566573));
                    g.fillRoundRect(60, y, width - 120, 150, 20, 20);
                    g.setColor(Color.WHITE);
                    g.drawString(recents.get(recents.size() - 1 - index), 90, y + 85);
                }
            }
            default -> {
                g.drawString(screenName, 40, 130);
                g.setColor(new Color(0xecf0f1));
                g.fillRect(0, 180, width, height - 180);
                drawField(g);
                drawDocument(g, 280, height - 60);
            }
        }
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 18));
        g.drawString(lastAction, 24, height - 20);
        g.setColor(new Color(255, 255, 255, 120));
        g.fillOval(pointerX - 12, pointerY - 12, 24, 24);
    }

    private void drawField(Graphics2D g) {
        int y = fieldY();
        g.setColor(Color.WHITE);
        g.fillRect(FIELD_X, y, width - 2 * FIELD_X, FIELD_HEIGHT);
        g.setColor(focused ? new Color(0x2980b9) : new Color(0x95a5a6));
        g.setStroke(new BasicStroke(focused ? 3 : 1));
        g.drawRect(FIELD_X, y, width - 2 * FIELD_X, FIELD_HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 22));
        String shown = field.length() <= 80 ? field.toString() : "..." + field.substring(field.length() - 77);
        g.drawString(shown + (focused ? "|" : ""), FIELD_X + 10, y + 32);
    }

    private void drawDocument(Graphics2D g, int top, int bottom) {
        g.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 18));
        g.setClip(FIELD_X, top, width - 2 * FIELD_X, bottom - top);
        int first = scrollY / LINE_HEIGHT;
        for (int line = first; line < first + (bottom - top) / LINE_HEIGHT + 2; line++) {
            int y = top + (line * LINE_HEIGHT - scrollY) + LINE_HEIGHT;
            String text = line < entries.size() ? "> " + entries.get(line) : "line " + (line + 1) + " of the document";
            g.setColor(line % 2 == 0 ? new Color(0x2c3e50) : new Color(0x7f8c8d));
            g.drawString(text, FIELD_X + 10 - scrollX, y);
        }
        g.setClip(null);
    }

    private void drawPointer(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(2));
        int[] xs = {pointerX, pointerX, pointerX + 6, pointerX + 10, pointerX + 13, pointerX + 9, pointerX + 16};
        int[] ys = {pointerY, pointerY + 20, pointerY + 15, pointerY + 24, pointerY + 22, pointerY + 13, pointerY + 13};
        g.setColor(Color.WHITE);
        g.fillPolygon(xs, ys, xs.length);
        g.setColor(Color.BLACK);
        g.drawPolygon(xs, ys, xs.length);
    }
}

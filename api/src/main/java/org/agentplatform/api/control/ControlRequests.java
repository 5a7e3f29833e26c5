package org.agentplatform.api.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.control.ControlAction;

/**
 * The bodies of the control actions and their checks, each refusal 400 {@code invalid_param} naming the field:
 * coordinates are integers inside the screen; {@code button} of a click is {@code left}, {@code right} or
 * {@code middle}; {@code clicks} 1-3; a scroll is {@code dx}/{@code dy} (-100 to 100 steps) or {@code direction} with
 * {@code amount} (1-100, default 3); {@code text} 1-10,000 characters; {@code key} or {@code keys} (at most 32) name
 * known keys ({@link Keys}); a swipe's {@code duration_ms} 1-10,000 (default 300); {@code button} of press_button one
 * of {@link DeviceAction.PressButton#BUTTONS}.
 */
final class ControlRequests {

    private static final List<String> MOUSE_BUTTONS = List.of("left", "right", "middle");
    private static final List<String> DIRECTIONS = List.of("up", "down", "left", "right");
    private static final int MAX_TEXT = 10_000;
    private static final int MAX_KEYS = 32;

    private ControlRequests() {
    }

    /** The action of {@code body} for a screen of this geometry. */
    static DeviceAction action(ControlAction action, Map<String, Object> body, Devices.Screen screen) {
        Map<String, Object> params = body == null ? Map.of() : body;
        return switch (action) {
            case CLICK -> new DeviceAction.Click(x(params, "x", screen), y(params, "y", screen),
                    oneOf(params, "button", MOUSE_BUTTONS, "left"), integer(params, "clicks", 1, 3, 1));
            case MOVE -> new DeviceAction.Move(x(params, "x", screen), y(params, "y", screen));
            case SCROLL -> scroll(params, screen);
            case TYPE -> new DeviceAction.Type(text(params, "text"));
            case KEY -> new DeviceAction.Key(keys(params));
            case TAP -> new DeviceAction.Tap(x(params, "x", screen), y(params, "y", screen));
            case SWIPE -> new DeviceAction.Swipe(x(params, "x1", screen), y(params, "y1", screen), x(params, "x2", screen),
                    y(params, "y2", screen), integer(params, "duration_ms", 1, 10_000, 300));
            case PRESS_BUTTON -> new DeviceAction.PressButton(oneOf(params, "button", DeviceAction.PressButton.BUTTONS, null));
            case SCREENSHOT -> throw new IllegalArgumentException("A screenshot is not an action on the device");
        };
    }

    private static DeviceAction scroll(Map<String, Object> params, Devices.Screen screen) {
        Integer x = params.containsKey("x") || params.containsKey("y") ? x(params, "x", screen) : null;
        Integer y = x == null ? null : y(params, "y", screen);
        if (params.containsKey("direction")) {
            String direction = oneOf(params, "direction", DIRECTIONS, null);
            int amount = integer(params, "amount", 1, 100, 3);
            return switch (direction) {
                case "up" -> new DeviceAction.Scroll(x, y, 0, -amount);
                case "down" -> new DeviceAction.Scroll(x, y, 0, amount);
                case "left" -> new DeviceAction.Scroll(x, y, -amount, 0);
                default -> new DeviceAction.Scroll(x, y, amount, 0);
            };
        }
        int dx = integer(params, "dx", -100, 100, 0);
        int dy = integer(params, "dy", -100, 100, 0);
        if (dx == 0 && dy == 0) {
            throw ApiException.invalidParam("dy", "A scroll needs 'dx' or 'dy' (steps, not both zero) or 'direction'");
        }
        return new DeviceAction.Scroll(x, y, dx, dy);
    }

    private static List<String> keys(Map<String, Object> params) {
        if (params.get("keys") instanceof List<?> list) {
            if (list.isEmpty() || list.size() > MAX_KEYS) {
                throw ApiException.invalidParam("keys", "'keys' must list 1 to " + MAX_KEYS + " keys");
            }
            List<String> named = new ArrayList<>();
            for (int index = 0; index < list.size(); index++) {
                named.add(key(list.get(index), "keys[" + index + "]"));
            }
            return named;
        }
        String field = params.containsKey("keys") ? "keys" : "key";
        if (!params.containsKey(field)) {
            throw ApiException.missingParam("key");
        }
        return List.of(key(params.get(field), field));
    }

    private static String key(Object value, String field) {
        if (!(value instanceof String name)) {
            throw ApiException.invalidParam(field, "'" + field + "' must be a key name such as Return, a, F5 or ctrl+c");
        }
        return Keys.canonical(name)
                .orElseThrow(() -> ApiException.invalidParam(field, "'" + field + "' names no known key: " + abbreviated(name)));
    }

    private static String text(Map<String, Object> params, String field) {
        Object value = params.get(field);
        if (value == null) {
            throw ApiException.missingParam(field);
        }
        if (!(value instanceof String text) || text.isEmpty() || text.length() > MAX_TEXT) {
            throw ApiException.invalidParam(field, "'" + field + "' must be 1 to " + MAX_TEXT + " characters");
        }
        return text;
    }

    private static int x(Map<String, Object> params, String field, Devices.Screen screen) {
        return coordinate(params, field, screen.width(), "width");
    }

    private static int y(Map<String, Object> params, String field, Devices.Screen screen) {
        return coordinate(params, field, screen.height(), "height");
    }

    private static int coordinate(Map<String, Object> params, String field, int extent, String dimension) {
        Object value = params.get(field);
        if (value == null) {
            throw ApiException.missingParam(field);
        }
        if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < 0
                || ((Number) value).longValue() >= extent) {
            throw ApiException.invalidParam(field, "'" + field + "' must be a whole number of pixels from 0 to " + (extent - 1)
                    + " (the screen's " + dimension + " is " + extent + ")");
        }
        return ((Number) value).intValue();
    }

    private static int integer(Map<String, Object> params, String field, int min, int max, int fallback) {
        Object value = params.get(field);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < min || ((Number) value).longValue() > max) {
            throw ApiException.invalidParam(field, "'" + field + "' must be a whole number from " + min + " to " + max);
        }
        return ((Number) value).intValue();
    }

    private static String oneOf(Map<String, Object> params, String field, List<String> allowed, String fallback) {
        Object value = params.get(field);
        if (value == null) {
            if (fallback == null) {
                throw ApiException.missingParam(field);
            }
            return fallback;
        }
        if (!(value instanceof String chosen) || !allowed.contains(chosen)) {
            throw ApiException.invalidParam(field, "'" + field + "' must be one of " + String.join(", ", allowed));
        }
        return chosen;
    }

    /** Text quoted in a refusal: at most 32 characters. */
    static String abbreviated(String text) {
        return text.length() <= 32 ? text : text.substring(0, 32) + "...";
    }
}

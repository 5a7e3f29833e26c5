package org.agentplatform.api.control;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentplatform.kernel.control.ControlAction;

/** An atomic action for a device, its parameters checked (coordinates inside the screen, known keys and buttons). */
public sealed interface DeviceAction {

    ControlAction action();

    /** The parameters as the audit records them: typed text only as its length. */
    Map<String, Object> audited();

    record Click(int x, int y, String button, int clicks) implements DeviceAction {

        @Override
        public ControlAction action() {
            return ControlAction.CLICK;
        }

        @Override
        public Map<String, Object> audited() {
            return Map.of("x", x, "y", y, "button", button, "clicks", clicks);
        }
    }

    record Move(int x, int y) implements DeviceAction {

        @Override
        public ControlAction action() {
            return ControlAction.MOVE;
        }

        @Override
        public Map<String, Object> audited() {
            return Map.of("x", x, "y", y);
        }
    }

    /** Scrolls by {@code dx}, {@code dy} steps (positive: right, down), at {@code x}, {@code y} when given (null: where it is). */
    record Scroll(Integer x, Integer y, int dx, int dy) implements DeviceAction {

        @Override
        public ControlAction action() {
            return ControlAction.SCROLL;
        }

        @Override
        public Map<String, Object> audited() {
            Map<String, Object> params = new LinkedHashMap<>();
            if (x != null) {
                params.put("x", x);
                params.put("y", y);
            }
            params.put("dx", dx);
            params.put("dy", dy);
            return params;
        }
    }

    record Type(String text) implements DeviceAction {

        @Override
        public ControlAction action() {
            return ControlAction.TYPE;
        }

        @Override
        public Map<String, Object> audited() {
            return Map.of("text_length", text.codePointCount(0, text.length()));
        }
    }

    /** Key presses in order; each a key or a chord ({@code ctrl+c}), in canonical names ({@link Keys}). */
    record Key(List<String> keys) implements DeviceAction {

        @Override
        public ControlAction action() {
            return ControlAction.KEY;
        }

        @Override
        public Map<String, Object> audited() {
            return Map.of("keys", keys);
        }
    }

    record Tap(int x, int y) implements DeviceAction {

        @Override
        public ControlAction action() {
            return ControlAction.TAP;
        }

        @Override
        public Map<String, Object> audited() {
            return Map.of("x", x, "y", y);
        }
    }

    record Swipe(int x1, int y1, int x2, int y2, int durationMs) implements DeviceAction {

        @Override
        public ControlAction action() {
            return ControlAction.SWIPE;
        }

        @Override
        public Map<String, Object> audited() {
            return Map.of("x1", x1, "y1", y1, "x2", x2, "y2", y2, "duration_ms", durationMs);
        }
    }

    /** An android hardware button: {@code home}, {@code back}, {@code recents}, {@code power}, {@code volume_up}, {@code volume_down}. */
    record PressButton(String button) implements DeviceAction {

        public static final List<String> BUTTONS = List.of("home", "back", "recents", "power", "volume_up", "volume_down");

        @Override
        public ControlAction action() {
            return ControlAction.PRESS_BUTTON;
        }

        @Override
        public Map<String, Object> audited() {
            return Map.of("button", button);
        }
    }
}

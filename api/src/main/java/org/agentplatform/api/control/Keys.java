package org.agentplatform.api.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The key names the control actions take, case-insensitive, as X keysyms ({@code Return}, {@code ctrl}): a single
 * letter or digit, a named key, {@code F1}-{@code F12}, or a chord of modifiers and one key ({@code ctrl+shift+t}).
 */
public final class Keys {

    private static final Map<String, String> NAMED = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private static final Map<String, String> MODIFIERS = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    static {
        for (String name : List.of("Return", "Tab", "Escape", "BackSpace", "Delete", "Insert", "Home", "End", "Page_Up", "Page_Down",
                "Left", "Right", "Up", "Down", "space", "Menu", "minus", "equal", "period", "comma", "slash", "semicolon")) {
            NAMED.put(name, name);
        }
        NAMED.put("Enter", "Return");
        NAMED.put("Esc", "Escape");
        NAMED.put("Backspace", "BackSpace");
        NAMED.put("PageUp", "Page_Up");
        NAMED.put("PageDown", "Page_Down");
        for (int f = 1; f <= 12; f++) {
            NAMED.put("F" + f, "F" + f);
        }
        MODIFIERS.put("ctrl", "ctrl");
        MODIFIERS.put("control", "ctrl");
        MODIFIERS.put("alt", "alt");
        MODIFIERS.put("shift", "shift");
        MODIFIERS.put("super", "super");
        MODIFIERS.put("meta", "super");
        MODIFIERS.put("cmd", "super");
    }

    private Keys() {
    }

    /** The canonical form of a key or chord; empty when it names an unknown key. */
    public static Optional<String> canonical(String spec) {
        if (spec == null || spec.isBlank() || spec.length() > 64) {
            return Optional.empty();
        }
        String[] parts = spec.strip().split("\\+", -1);
        List<String> canonical = new ArrayList<>();
        for (int index = 0; index < parts.length - 1; index++) {
            String modifier = MODIFIERS.get(parts[index].strip());
            if (modifier == null) {
                return Optional.empty();
            }
            canonical.add(modifier);
        }
        String key = parts[parts.length - 1].strip();
        String named = NAMED.get(key);
        if (named != null) {
            canonical.add(named);
        } else if (key.length() == 1 && Character.isLetterOrDigit(key.charAt(0)) && key.charAt(0) < 128) {
            canonical.add(parts.length > 1 ? key.toLowerCase(Locale.ROOT) : key);
        } else if (MODIFIERS.containsKey(key) && parts.length == 1) {
            canonical.add(MODIFIERS.get(key));
        } else {
            return Optional.empty();
        }
        return Optional.of(String.join("+", canonical));
    }
}

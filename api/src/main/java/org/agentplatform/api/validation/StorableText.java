package org.agentplatform.api.validation;

import java.util.Map;
import org.agentplatform.api.error.ApiException;
import tools.jackson.databind.JsonNode;

/**
 * Text PostgreSQL can hold. A {@code text} or {@code jsonb} value cannot contain U+0000, and a UTF-16 surrogate
 * without its partner has no UTF-8 encoding (the driver would silently write {@code ?}). Such a string is refused
 * at the edge, naming its field, so that it never becomes an event no projection can apply.
 */
public final class StorableText {

    private StorableText() {
    }

    public static boolean storable(CharSequence text) {
        for (int i = 0, length = text.length(); i < length; i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == length || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** 400 {@code invalid_param} naming {@code param}. */
    public static ApiException refusal(String param) {
        String named = storable(param) ? param : printable(param);
        return ApiException.invalidParam(named, "'" + named + "' contains a character that cannot be stored"
                + " (U+0000 or an unpaired surrogate)");
    }

    /** The wire path of the first unstorable string (a value or a field name) under {@code node}, or null. */
    public static String firstUnstorable(JsonNode node, String path) {
        if (node.isString()) {
            return storable(node.asString()) ? null : path;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = firstUnstorable(node.get(i), path + "[" + i + "]");
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (!storable(field.getKey())) {
                    return fieldPath;
                }
                String found = firstUnstorable(field.getValue(), fieldPath);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** The text with every unstorable character replaced by U+FFFD, fit to be echoed in a refusal. */
    static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0, length = text.length(); i < length; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else {
                out.append(c == '\u0000' || Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return out.toString();
    }
}

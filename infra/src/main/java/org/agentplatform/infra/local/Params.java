package org.agentplatform.infra.local;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Typed access to a call's params; a missing or mistyped one is an {@code INVALID_PARAMS} refusal. */
final class Params {

    private final Map<String, Object> values;

    Params(Map<String, Object> values) {
        this.values = values == null ? Map.of() : values;
    }

    String text(String name) {
        String value = optionalText(name);
        if (value == null || value.isBlank()) {
            throw RuntimeRefusal.invalidParams("'" + name + "' is required");
        }
        return value;
    }

    String optionalText(String name) {
        Object value = values.get(name);
        if (value != null && !(value instanceof String)) {
            throw RuntimeRefusal.invalidParams("'" + name + "' must be a string");
        }
        return (String) value;
    }

    String text(String name, int maxLength) {
        String value = text(name);
        if (value.length() > maxLength) {
            throw RuntimeRefusal.invalidParams("'" + name + "' must be at most " + maxLength + " characters");
        }
        return value;
    }

    UUID id(String name) {
        String value = text(name);
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException malformed) {
            throw RuntimeRefusal.invalidParams("'" + name + "' must be a UUID");
        }
    }

    Boolean optionalBoolean(String name) {
        Object value = values.get(name);
        if (value != null && !(value instanceof Boolean)) {
            throw RuntimeRefusal.invalidParams("'" + name + "' must be a boolean");
        }
        return (Boolean) value;
    }

    Integer optionalInteger(String name) {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw RuntimeRefusal.invalidParams("'" + name + "' must be an integer");
        }
        return number.intValue();
    }

    List<?> optionalList(String name) {
        Object value = values.get(name);
        if (value != null && !(value instanceof List<?>)) {
            throw RuntimeRefusal.invalidParams("'" + name + "' must be an array");
        }
        return (List<?>) value;
    }

    Map<?, ?> optionalMap(String name) {
        Object value = values.get(name);
        if (value != null && !(value instanceof Map<?, ?>)) {
            throw RuntimeRefusal.invalidParams("'" + name + "' must be an object");
        }
        return (Map<?, ?>) value;
    }
}

package org.agentplatform.kernel.operation;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/** One parameter of a runtime method: its name, JSON type, and whether it must be present. */
public record ParamSpec(String name, JsonType type, boolean required) {

    public enum JsonType {
        STRING("string"),
        BOOLEAN("boolean"),
        INTEGER("integer"),
        OBJECT("object"),
        ARRAY("array");

        private final String wireName;

        JsonType(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        /** Whether a decoded JSON value (map, list, string, number, boolean) has this type. */
        public boolean accepts(Object value) {
            return switch (this) {
                case STRING -> value instanceof String;
                case BOOLEAN -> value instanceof Boolean;
                case INTEGER -> value instanceof Integer || value instanceof Long || value instanceof BigInteger;
                case OBJECT -> value instanceof Map;
                case ARRAY -> value instanceof List;
            };
        }
    }

    public static ParamSpec required(String name, JsonType type) {
        return new ParamSpec(name, type, true);
    }

    public static ParamSpec optional(String name, JsonType type) {
        return new ParamSpec(name, type, false);
    }
}

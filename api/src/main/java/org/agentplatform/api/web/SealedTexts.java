package org.agentplatform.api.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.agentplatform.kernel.privacy.PersonalContent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Opens the owner's sealed texts ({@link PersonalContent}) wherever they sit in a free-form value on its way out: an
 * event's data in the audit history, a runtime operation's result or event (a cron run's output is the reply of its
 * task). Every other value is left as it is.
 */
public final class SealedTexts {

    private SealedTexts() {
    }

    /** A tree of maps, lists and scalars with its sealed strings opened (a copy where something was opened). */
    public static Object opened(Object value, UnaryOperator<String> open) {
        return switch (value) {
            case String text when PersonalContent.isSealed(text) -> open.apply(text);
            case Map<?, ?> fields -> {
                Map<Object, Object> copy = new LinkedHashMap<>(fields.size());
                fields.forEach((name, field) -> copy.put(name, opened(field, open)));
                yield copy;
            }
            case List<?> items -> {
                List<Object> copy = new ArrayList<>(items.size());
                items.forEach(item -> copy.add(opened(item, open)));
                yield copy;
            }
            case null, default -> value;
        };
    }

    /** A JSON tree with its sealed strings opened, in place. */
    public static JsonNode opened(JsonNode node, UnaryOperator<String> open) {
        if (node.isString() && PersonalContent.isSealed(node.asString())) {
            return StringNode.valueOf(open.apply(node.asString()));
        }
        if (node instanceof ObjectNode object) {
            for (String name : List.copyOf(object.propertyNames())) {
                object.set(name, opened(object.get(name), open));
            }
        } else if (node instanceof ArrayNode array) {
            for (int index = 0; index < array.size(); index++) {
                array.set(index, opened(array.get(index), open));
            }
        }
        return node;
    }
}

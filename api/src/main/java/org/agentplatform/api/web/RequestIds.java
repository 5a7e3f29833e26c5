package org.agentplatform.api.web;

import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Pattern;
import org.agentplatform.kernel.RandomIds;
import org.springframework.web.server.ServerWebExchange;

/** The correlation id of a request: echoed when the caller sent a sane one, generated otherwise. */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    static final String ATTRIBUTE = RequestIds.class.getName();

    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:+=/-]{1,128}");

    private RequestIds() {
    }

    public static String of(ServerWebExchange exchange) {
        String id = exchange.getAttribute(ATTRIBUTE);
        return id == null ? assign(exchange, null) : id;
    }

    /** The request id among a WebSocket session's attributes (copied from its handshake), or a new one. */
    public static String of(Map<String, Object> sessionAttributes) {
        return sessionAttributes.get(ATTRIBUTE) instanceof String id ? id : generate();
    }

    /** Whether an exchange attribute is the request id (for what a WebSocket session keeps of its handshake). */
    public static boolean isAttribute(String name) {
        return ATTRIBUTE.equals(name);
    }

    static String assign(ServerWebExchange exchange, String incoming) {
        String id = incoming != null && SANE.matcher(incoming).matches() ? incoming : generate();
        exchange.getAttributes().put(ATTRIBUTE, id);
        return id;
    }

    static String generate() {
        return "req_" + HexFormat.of().formatHex(RandomIds.bytes(12));
    }
}

package org.agentplatform.infra.database;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A PostgreSQL server someone else runs, named by {@code AGENT_PLATFORM_DATABASE_URL}: a JDBC URL
 * ({@code jdbc:postgresql://host:5432/db?sslmode=require}) or a libpq one ({@code postgres://user:pw@host/db}).
 * Explicit user and password settings win over credentials inside the URL.
 */
public record ExternalDatabase(DatabaseEndpoint endpoint) implements DatabaseServer {

    private static final int DEFAULT_PORT = 5432;

    public static ExternalDatabase parse(String url, String user, String password) {
        String spec = url.strip();
        if (spec.startsWith("jdbc:")) {
            spec = spec.substring("jdbc:".length());
        }
        URI uri = URI.create(spec);
        if (!"postgresql".equals(uri.getScheme()) && !"postgres".equals(uri.getScheme())) {
            throw new IllegalArgumentException("AGENT_PLATFORM_DATABASE_URL must be a postgresql:// or jdbc:postgresql:// URL");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("AGENT_PLATFORM_DATABASE_URL names no host");
        }
        String database = uri.getPath() == null || uri.getPath().length() <= 1 ? "postgres" : uri.getPath().substring(1);
        String urlUser = null;
        String urlPassword = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            urlUser = decode(parts[0]);
            urlPassword = parts.length > 1 ? decode(parts[1]) : null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                String[] keyValue = pair.split("=", 2);
                String key = decode(keyValue[0]);
                String value = keyValue.length > 1 ? decode(keyValue[1]) : "";
                switch (key) {
                    case "user" -> urlUser = value;
                    case "password" -> urlPassword = value;
                    default -> parameters.put(key, value);
                }
            }
        }
        return new ExternalDatabase(new DatabaseEndpoint(
                uri.getHost(),
                uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
                database,
                firstNonBlank(user, urlUser, "postgres"),
                firstNonBlank(password, urlPassword, ""),
                parameters));
    }

    private static String firstNonBlank(String... candidates) {
        for (String candidate : candidates) {
            if (candidate != null && !candidate.isBlank()) {
                return candidate;
            }
        }
        return "";
    }

    private static String decode(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        // not ours to stop
    }
}

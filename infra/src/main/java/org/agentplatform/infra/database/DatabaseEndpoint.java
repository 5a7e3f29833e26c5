package org.agentplatform.infra.database;

import java.util.Map;
import java.util.stream.Collectors;

/** Where the service's PostgreSQL database is and how to log in; the password never appears in {@link #toString()}. */
public record DatabaseEndpoint(String host, int port, String database, String user, String password, Map<String, String> parameters) {

    public DatabaseEndpoint {
        parameters = Map.copyOf(parameters);
    }

    public String jdbcUrl() {
        String query = parameters.entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue())
                .sorted()
                .collect(Collectors.joining("&"));
        return "jdbc:postgresql://" + host + ":" + port + "/" + database + (query.isEmpty() ? "" : "?" + query);
    }

    public DatabaseEndpoint withDatabase(String otherDatabase) {
        return new DatabaseEndpoint(host, port, otherDatabase, user, password, parameters);
    }

    @Override
    public String toString() {
        return "DatabaseEndpoint[" + user + "@" + host + ":" + port + "/" + database + "]";
    }
}

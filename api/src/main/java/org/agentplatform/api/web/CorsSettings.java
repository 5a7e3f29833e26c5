package org.agentplatform.api.web;

import java.util.List;

/** The browser origins allowed to call the API ({@link BrowserOrigins}); empty: none. */
public record CorsSettings(List<String> allowedOrigins) {

    public CorsSettings {
        allowedOrigins = allowedOrigins == null ? List.of() : allowedOrigins.stream().map(String::strip).filter(origin -> !origin.isEmpty())
                .toList();
    }
}

package org.agentplatform.api.error;

import tools.jackson.core.JacksonException;

/** Renders a Jackson failure's location the way the contract names fields: {@code files[0].path}. */
final class JsonPaths {

    private JsonPaths() {
    }

    static String of(JacksonException failure) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : failure.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }
}

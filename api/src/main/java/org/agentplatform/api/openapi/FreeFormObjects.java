package org.agentplatform.api.openapi;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Schema;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * An object whose fields the document does not list (a JSON-RPC call's {@code params}, a skill's files, the harness's
 * answers) is said to take any fields: {@code additionalProperties: true}. Without it, generators read "an object with no
 * fields": openapi-typescript types it {@code Record<string, never>}, so a typed TypeScript client could send no params and
 * read no field of such an answer.
 */
final class FreeFormObjects {

    private FreeFormObjects() {
    }

    static void apply(OpenAPI document) {
        Set<Schema<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        if (document.getComponents() != null && document.getComponents().getSchemas() != null) {
            document.getComponents().getSchemas().values().forEach(schema -> visit(schema, seen));
        }
        if (document.getPaths() == null) {
            return;
        }
        document.getPaths().values().forEach(item -> item.readOperations().forEach(operation -> {
            if (operation.getRequestBody() != null) {
                visit(operation.getRequestBody().getContent(), seen);
            }
            if (operation.getResponses() != null) {
                operation.getResponses().values().forEach(response -> visit(response.getContent(), seen));
            }
            if (operation.getParameters() != null) {
                operation.getParameters().forEach(parameter -> visit(parameter.getSchema(), seen));
            }
        }));
    }

    private static void visit(Content content, Set<Schema<?>> seen) {
        if (content != null) {
            content.values().forEach(media -> visit(media.getSchema(), seen));
        }
    }

    private static void visit(Schema<?> schema, Set<Schema<?>> seen) {
        if (schema == null || !seen.add(schema)) {
            return;
        }
        if (isObject(schema) && schema.get$ref() == null && schema.getProperties() == null && schema.getAdditionalProperties() == null
                && schema.getAllOf() == null && schema.getAnyOf() == null && schema.getOneOf() == null) {
            schema.setAdditionalProperties(true);
        }
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(property -> visit(property, seen));
        }
        if (schema.getAdditionalProperties() instanceof Schema<?> values) {
            visit(values, seen);
        }
        visit(schema.getItems(), seen);
        for (List<Schema> composed : List.of(nonNull(schema.getAllOf()), nonNull(schema.getAnyOf()), nonNull(schema.getOneOf()))) {
            composed.forEach(part -> visit(part, seen));
        }
    }

    private static boolean isObject(Schema<?> schema) {
        return "object".equals(schema.getType()) || (schema.getTypes() != null && schema.getTypes().contains("object"));
    }

    @SuppressWarnings("rawtypes")
    private static List<Schema> nonNull(List<Schema> schemas) {
        return schemas == null ? List.of() : schemas;
    }
}

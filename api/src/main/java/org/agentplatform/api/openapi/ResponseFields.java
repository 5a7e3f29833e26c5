package org.agentplatform.api.openapi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.agentplatform.api.web.ApiResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.method.HandlerMethod;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What a response's fields are, stated in the document as they are on the wire: a field of a response record is always
 * present ({@code required}), and may be {@code null} only where its component is marked {@link Nullable} (then its
 * type admits {@code null}); a field the record leaves out when null ({@link JsonInclude.Include#NON_NULL}) is neither.
 * The response records are found from the routes' return types, by the name springdoc gives their schemas (the simple
 * name; {@code ApiResponse<T>} is {@code ApiResponse<name of T>}).
 */
final class ResponseFields {

    private static final String PACKAGE = "org.agentplatform.";
    private final Map<String, Class<?>> records = new ConcurrentHashMap<>();

    /** Notes the records a route answers with (its return type, through the reactive and envelope wrappers). */
    void collect(HandlerMethod handler) {
        collect(ResolvableType.forMethodReturnType(handler.getMethod()));
    }

    private void collect(ResolvableType type) {
        Class<?> raw = type.resolve();
        if (raw == null) {
            return;
        }
        if (raw == Mono.class || raw == Flux.class || raw == ResponseEntity.class || raw == ApiResponse.class || raw == Optional.class
                || Collection.class.isAssignableFrom(raw)) {
            collect(type.getGeneric(0));
        } else if (Map.class.isAssignableFrom(raw)) {
            collect(type.getGeneric(1));
        } else if (raw.isRecord() && raw.getName().startsWith(PACKAGE)) {
            Class<?> known = records.putIfAbsent(raw.getSimpleName(), raw);
            if (known == null) {
                for (RecordComponent component : raw.getRecordComponents()) {
                    collect(ResolvableType.forType(component.getGenericType()));
                }
            } else if (known != raw && !shape(known).equals(shape(raw))) {
                // springdoc names a schema by the simple name: two different records of one name would share one schema
                throw new IllegalStateException(known.getName() + " and " + raw.getName() + " would be one schema of the document;"
                        + " rename one");
            }
        }
    }

    private static String shape(Class<?> record) {
        StringBuilder shape = new StringBuilder();
        for (RecordComponent component : record.getRecordComponents()) {
            shape.append(component.getAnnotatedType()).append(' ').append(component.getName()).append(';');
        }
        return shape.toString();
    }

    /** Marks, in every schema of a response record, which properties are always there and which may be null. */
    void apply(OpenAPI document) {
        document.getComponents().getSchemas().forEach((name, schema) -> {
            Class<?> record = name.startsWith("ApiResponse") ? ApiResponse.class : records.get(name);
            if (record != null && schema.getProperties() != null) {
                state(record, schema);
            }
        });
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void state(Class<?> record, Schema<?> schema) {
        boolean recordOmitsNulls = omitsNulls(record.getAnnotation(JsonInclude.class));
        List<String> required = new ArrayList<>();
        for (RecordComponent component : record.getRecordComponents()) {
            JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
            String property = renamed != null && !renamed.value().isEmpty() ? renamed.value() : component.getName();
            Schema field = schema.getProperties().get(property);
            if (field == null || recordOmitsNulls || omitsNulls(component.getAccessor().getAnnotation(JsonInclude.class))) {
                continue;
            }
            required.add(property);
            if (component.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
                schema.getProperties().put(property, nullable(field));
            }
        }
        schema.setRequired(required.isEmpty() ? null : required);
    }

    private static boolean omitsNulls(JsonInclude include) {
        return include != null && include.value() != JsonInclude.Include.ALWAYS && include.value() != JsonInclude.Include.USE_DEFAULTS;
    }

    /** The field's schema, admitting null: a reference becomes any of it or null; a typed one gets the type {@code null}. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema nullable(Schema field) {
        if (field.get$ref() != null) {
            Schema either = new Schema();
            either.setAnyOf(List.of(new Schema().$ref(field.get$ref()), new Schema().types(Set.of("null"))));
            either.setDescription(field.getDescription());
            return either;
        }
        Set<String> types = new LinkedHashSet<>();
        if (field.getTypes() != null) {
            types.addAll(field.getTypes());
        } else if (field.getType() != null) {
            types.add(field.getType());
        }
        if (!types.isEmpty()) {
            types.add("null");
            field.setTypes(types);
            field.setType(null);
        }
        return field;
    }
}

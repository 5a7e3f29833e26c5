package org.agentplatform.query;

import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** JSONB columns of the read models: written from JSON values (maps, lists, scalars), read back as the same. */
public final class JsonColumns {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private JsonColumns() {
    }

    public static String write(Object value) {
        return value == null ? null : MAPPER.writeValueAsString(value);
    }

    public static Object readValue(Readable row, String column) {
        Json json = row.get(column, Json.class);
        return json == null ? null : MAPPER.readValue(json.asString(), Object.class);
    }

    public static Map<String, Object> readObject(Readable row, String column) {
        Json json = row.get(column, Json.class);
        return json == null ? null : MAPPER.readValue(json.asString(), OBJECT);
    }
}

package org.agentplatform.api.validation;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.module.SimpleModule;

/**
 * Every JSON string a request body binds to a {@code String} (record fields, lists, untyped values) passes
 * {@link StorableText}; one that does not fails decoding with {@link Unstorable}, which carries the field's path.
 */
public final class StorableStrings extends StringDeserializer {

    private StorableStrings() {
    }

    public static SimpleModule module() {
        return new SimpleModule("storable-strings").addDeserializer(String.class, new StorableStrings());
    }

    @Override
    public String deserialize(JsonParser parser, DeserializationContext context) {
        String value = super.deserialize(parser, context);
        if (value != null && !StorableText.storable(value)) {
            throw new Unstorable(parser);
        }
        return value;
    }

    /** A string PostgreSQL cannot hold; Jackson adds the path of the field it was bound to. */
    public static final class Unstorable extends InvalidFormatException {

        Unstorable(JsonParser parser) {
            super(parser, "a string contains a character that cannot be stored", null, String.class);
        }
    }
}

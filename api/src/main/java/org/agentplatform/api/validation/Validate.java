package org.agentplatform.api.validation;

import org.agentplatform.api.error.ApiException;

/**
 * Value checks on decoded request bodies and parameters. Each names the field by its wire path, so a
 * refusal carries the contract's {@code param}: absent -> {@code missing_param}, rejected -> {@code invalid_param}.
 */
public final class Validate {

    private Validate() {
    }

    public static <T> T present(String param, T value) {
        if (value == null) {
            throw ApiException.missingParam(param);
        }
        return value;
    }

    public static String text(String param, String value, int minLength, int maxLength) {
        present(param, value);
        int length = value.codePointCount(0, value.length());
        if (length < minLength || length > maxLength || (minLength > 0 && value.isBlank())) {
            throw ApiException.invalidParam(param, "'" + param + "' must be " + minLength + " to " + maxLength + " characters");
        }
        return value;
    }

    public static int range(String param, int value, int min, int max) {
        if (value < min || value > max) {
            throw ApiException.invalidParam(param, "'" + param + "' must be between " + min + " and " + max);
        }
        return value;
    }
}

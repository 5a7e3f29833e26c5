package org.agentplatform.api.web;

/** The success envelope: {@code {success: true, data: ...}}. */
public record ApiResponse<T>(boolean success, T data) {

    public static <T> ApiResponse<T> of(T data) {
        return new ApiResponse<>(true, data);
    }
}

package org.agentplatform.api.web;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The query parameters of a list paged newest first, as a route takes them ({@code @ParameterObject PageParams paging}):
 * {@code limit} and {@code cursor}, read as text so that a malformed one is the envelope's 400 naming it
 * ({@link QueryParams#page}), not a binding error.
 */
public record PageParams(
        @Parameter(description = "at most this many, newest first (default 50, at most 200)", schema = @Schema(type = "integer", format = "int64"))
        @Nullable String limit,
        @Parameter(description = "a previous page's next_cursor: the items made before it", schema = @Schema(type = "integer", format = "int64",
                minimum = "0"))
        @Nullable String cursor) {

    /** The page asked for: 400 {@code invalid_param} when {@code limit} or {@code cursor} is not a number of its range. */
    public QueryParams.PageRequest request() {
        return QueryParams.page(limit, cursor);
    }
}

package org.agentplatform.api.error;

import java.util.Map;
import java.util.stream.Collectors;
import org.agentplatform.api.auth.AuthenticationFailure;
import org.agentplatform.api.validation.StorableStrings;
import org.agentplatform.api.validation.StorableText;
import org.agentplatform.api.web.RequestIds;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.query.ReadModelBehind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.web.server.ContentTooLargeException;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.MissingRequestValueException;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Turns every failure into the contract's error envelope: our own refusals, WebFlux's HTTP-level
 * refusals (404, 405, 406, 413, 415), JSON decoding failures, and unexpected faults, which answer
 * {@code internal_error} with no stack trace and are logged with the request id.
 */
public final class ApiErrorHandler implements WebExceptionHandler, Ordered {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorHandler.class);

    private final ErrorResponseWriter writer;

    public ApiErrorHandler(ErrorResponseWriter writer) {
        this.writer = writer;
    }

    @Override
    public int getOrder() {
        return -2; // ahead of Spring Boot's default error handler (-1)
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        if (exchange.getResponse().isCommitted()) {
            return Mono.error(failure);
        }
        ApiException error = translate(failure);
        // an ApiException is a deliberate answer (a task that failed inside the platform, say), not a fault of ours
        if (error.code() == ErrorCode.INTERNAL_ERROR && !(failure instanceof ApiException)) {
            log.atError()
                    .addKeyValue("request_id", RequestIds.of(exchange))
                    .addKeyValue("method", exchange.getRequest().getMethod().name())
                    .addKeyValue("path", exchange.getRequest().getPath().value())
                    .setCause(failure)
                    .log("unexpected fault");
        }
        return writer.write(exchange, error, extraHeaders(failure));
    }

    public static ApiException translate(Throwable failure) {
        return switch (failure) {
            case ApiException api -> api;
            case AuthenticationFailure auth -> auth.toApiException();
            case ReadModelBehind behind -> ApiException.notVisibleYet("Resource " + behind.resource(), Map.of());
            case AuthenticationException auth -> new ApiException(ErrorCode.UNAUTHORIZED, "Authentication failed");
            case AccessDeniedException denied -> new ApiException(ErrorCode.FORBIDDEN, "Not permitted");
            case MethodNotAllowedException notAllowed -> new ApiException(ErrorCode.METHOD_NOT_ALLOWED,
                    notAllowed.getHttpMethod() + " is not allowed here; allowed: " + allowed(notAllowed));
            case UnsupportedMediaTypeStatusException unsupported -> new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type " + (unsupported.getContentType() == null ? "(none)" : unsupported.getContentType())
                            + " is not supported; send application/json");
            case NotAcceptableStatusException notAcceptable -> new ApiException(ErrorCode.NOT_ACCEPTABLE,
                    "None of the accepted media types can be produced; accept application/json");
            case ContentTooLargeException tooLarge -> payloadTooLarge();
            case MissingRequestValueException missing -> ApiException.missingParam(missing.getName());
            case ServerWebInputException input -> translateInput(input);
            case ResponseStatusException status -> byStatus(status.getStatusCode().value());
            case DataBufferLimitException limit -> payloadTooLarge();
            default -> new ApiException(ErrorCode.INTERNAL_ERROR, "An unexpected error occurred");
        };
    }

    /** A refusal raised by its HTTP status alone (by WebFlux, or by the HTTP decoder below it). */
    public static ApiException byStatus(int status) {
        return switch (status) {
            case 404 -> ApiException.notFound("No route matches this path");
            case 405 -> new ApiException(ErrorCode.METHOD_NOT_ALLOWED, "This method is not allowed here");
            case 406 -> new ApiException(ErrorCode.NOT_ACCEPTABLE, "None of the accepted media types can be produced; accept application/json");
            case 413 -> payloadTooLarge();
            case 414 -> new ApiException(ErrorCode.URI_TOO_LONG, "The request URI is longer than this server accepts");
            case 415 -> new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "This Content-Type is not supported here; send application/json");
            case 431 -> new ApiException(ErrorCode.HEADERS_TOO_LARGE, "The request headers are larger than this server accepts");
            case 505 -> new ApiException(ErrorCode.HTTP_VERSION_NOT_SUPPORTED, "This server speaks HTTP/1.1 and HTTP/1.0");
            default -> status >= 400 && status < 500
                    ? new ApiException(ErrorCode.MALFORMED_REQUEST, "The request cannot be processed as sent (request line, headers or body)")
                    : new ApiException(ErrorCode.INTERNAL_ERROR, "An unexpected error occurred");
        };
    }

    private static ApiException translateInput(ServerWebInputException input) {
        if (findCause(input, DataBufferLimitException.class) != null) {
            return payloadTooLarge();
        }
        JacksonException json = findCause(input, JacksonException.class);
        if (json != null) {
            return translateJson(json);
        }
        if (findCause(input, DecodingException.class) != null) {
            return new ApiException(ErrorCode.INVALID_JSON, "The request body must be a JSON document");
        }
        if (input.getMethodParameter() != null && input.getMethodParameter().getParameterName() != null) {
            String param = input.getMethodParameter().getParameterName();
            return ApiException.invalidParam(param, "'" + param + "' is not valid");
        }
        return new ApiException(ErrorCode.INVALID_BODY, "The request could not be read");
    }

    private static ApiException translateJson(JacksonException json) {
        String path = JsonPaths.of(json);
        if (json instanceof StreamReadException && !(json instanceof InputCoercionException)) {
            return new ApiException(ErrorCode.INVALID_JSON, "The request body is not valid JSON: " + json.getOriginalMessage());
        }
        if (json instanceof StorableStrings.Unstorable) {
            return StorableText.refusal(path.isEmpty() ? "body" : path);
        }
        if (json instanceof InputCoercionException && !path.isEmpty()) {
            // an integer of the right JSON type beyond what the field holds: a value out of range, like -1 for a limit
            return ApiException.invalidParam(path, "'" + path + "' is out of range");
        }
        if (json instanceof InvalidFormatException invalid && !path.isEmpty() && !wrongJsonType(invalid)) {
            // the JSON type is right but the value is not (a malformed date, an unknown enum name)
            return ApiException.invalidParam(path, "'" + path + "' is not a valid value");
        }
        if (json instanceof UnrecognizedPropertyException unknown) {
            return ApiException.invalidBody("Unknown field '" + path + "'; known fields: "
                    + unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted().collect(Collectors.joining(", ")), path);
        }
        return ApiException.invalidBody(path.isEmpty()
                ? "The request body does not match the expected shape"
                : "Field '" + path + "' has the wrong type or shape", path);
    }

    /**
     * A scalar Jackson would not coerce ({@code ApiConfiguration.strictRequestBodies}): a number or a boolean for text,
     * text or a fraction for an integer, text or a number for a boolean. The wrong JSON type, like an object for text.
     */
    private static boolean wrongJsonType(InvalidFormatException invalid) {
        Object value = invalid.getValue();
        Class<?> target = invalid.getTargetType();
        if (target == null) {
            return false;
        }
        boolean text = CharSequence.class.isAssignableFrom(target);
        boolean number = Number.class.isAssignableFrom(target) || target == int.class || target == long.class || target == short.class
                || target == double.class || target == float.class;
        boolean bool = target == Boolean.class || target == boolean.class;
        return text && (value instanceof Number || value instanceof Boolean)
                || (number || bool) && value instanceof String
                || (number || bool) && value instanceof Number;
    }

    private static ApiException payloadTooLarge() {
        return new ApiException(ErrorCode.PAYLOAD_TOO_LARGE, "The request body is larger than this route accepts");
    }

    private static String allowed(MethodNotAllowedException notAllowed) {
        return notAllowed.getSupportedMethods().stream().map(HttpMethod::name).sorted().collect(Collectors.joining(", "));
    }

    private static HttpHeaders extraHeaders(Throwable failure) {
        HttpHeaders headers = new HttpHeaders();
        if (failure instanceof MethodNotAllowedException notAllowed) {
            headers.setAllow(notAllowed.getSupportedMethods());
        }
        return headers;
    }

    private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable current = failure; current != null; current = current.getCause()) {
            if (type.isInstance(current)) {
                return type.cast(current);
            }
            if (current.getCause() == current) {
                break;
            }
        }
        return null;
    }
}

package org.agentplatform.webhook;

import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.agentplatform.kernel.webhook.DeliveryAttempt;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufMono;
import reactor.netty.http.client.HttpClient;

/**
 * Sends one callback: {@code POST} the exact payload bytes with the contract's headers, signed at send
 * time (or with a redelivery's fixed header), within the attempt timeout, never following a redirect,
 * and only to addresses the {@link SsrfGuard} allows. Answers how it went; it does not throw.
 */
public final class CallbackSender {

    static final int SNIPPET = 256;

    private final HttpClient http;
    private final SsrfGuard guard;
    private final Duration timeout;
    private final Clock clock;

    public CallbackSender(SsrfGuard guard, Executor lookups, Duration timeout, Clock clock) {
        this.guard = guard;
        this.http = HttpClient.newConnection()
                .resolver(new GuardedResolver(guard, lookups))
                .followRedirect(false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeout.toMillis())
                .responseTimeout(timeout);
        this.timeout = timeout;
        this.clock = clock;
    }

    /** One callback to deliver: {@code secret}/{@code token} null when the webhook has none. */
    public record Callback(int attempt, String url, String taskId, String payload, String secret, String token, String fixedSignature) {
    }

    public DeliveryAttempt send(Callback callback) {
        Instant start = clock.instant();
        byte[] body = callback.payload().getBytes(StandardCharsets.UTF_8);
        String signature = callback.fixedSignature() != null ? callback.fixedSignature()
                : callback.secret() != null ? WebhookSigner.header(callback.secret(), start.getEpochSecond(), body) : null;
        try {
            URI url = URI.create(callback.url());
            guard.checkLiteral(url.getHost());
            Response response = http
                    .headers(headers -> {
                        headers.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
                        headers.set(HttpHeaderNames.CONTENT_LENGTH, body.length);
                        headers.set("X-Service-Webhook-Format", "openapi");
                        if (callback.token() != null) {
                            headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + callback.token());
                        }
                        if (signature != null) {
                            headers.set("X-Service-Event", "task.state");
                            headers.set("X-Service-Task-Id", callback.taskId());
                            headers.set("X-Service-Signature", signature);
                        }
                    })
                    .post()
                    .uri(url)
                    .send(ByteBufMono.fromString(Mono.just(callback.payload())))
                    .responseSingle((answer, content) -> content.asString(StandardCharsets.UTF_8).defaultIfEmpty("")
                            .map(text -> new Response(answer.status().code(), text)))
                    .timeout(timeout)
                    .block();
            long took = Duration.between(start, clock.instant()).toMillis();
            boolean succeeded = response.status() >= 200 && response.status() < 300;
            return new DeliveryAttempt(callback.attempt(), start, succeeded, response.status(), succeeded ? "" : describe(response.status()),
                    took, snippet(response.body()), signature);
        } catch (RuntimeException failure) {
            long took = Duration.between(start, clock.instant()).toMillis();
            return new DeliveryAttempt(callback.attempt(), start, false, 0, describe(failure), took, "", signature);
        }
    }

    private static String describe(int status) {
        return status >= 300 && status < 400 ? "HTTP " + status + " (redirects are not followed)" : "HTTP " + status;
    }

    private String describe(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SsrfGuard.Refused refused) {
                return refused.getMessage();
            }
            if (cause instanceof TimeoutException || cause.getClass().getSimpleName().contains("Timeout")) {
                return "No answer within " + timeout.toSeconds() + " s";
            }
        }
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    private static String snippet(String body) {
        return body.length() <= SNIPPET ? body : body.substring(0, SNIPPET);
    }

    private record Response(int status, String body) {
    }
}

package org.agentplatform.api.webhook;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.operation.SecretSealer;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.WebhookCommand.RegisterWebhook;
import org.agentplatform.kernel.webhook.WebhookCommand.Registered;
import org.agentplatform.kernel.webhook.WebhookId;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Registering a webhook, for the webhook routes and for webhooks given with a new task: the contract's
 * checks (absolute {@code http}/{@code https} URL, {@code secret} 16-256 characters), then the secret and
 * token sealed in the vault, then the command with their references only.
 */
@Component
public final class WebhookRegistrar {

    private final Commands commands;
    private final SecretSealer vault;

    WebhookRegistrar(Commands commands, SecretSealer vault) {
        this.commands = commands;
        this.vault = vault;
    }

    /** A checked registration; {@code secret}/{@code token} null mean "leave as it is" (none, for a new webhook). */
    public record Checked(String url, String secret, String token) {
    }

    /** Checks a registration; {@code at} prefixes the field names in refusals ({@code webhooks[0].}). */
    public static Checked check(String at, String url, String secret, String token) {
        Validate.text(at + "url", url, 1, 2048);
        if (!isHttpUrl(url)) {
            throw ApiException.invalidParam(at + "url", "'" + at + "url' must be an absolute http:// or https:// URL");
        }
        if (URI.create(url).getRawUserInfo() != null) {
            // the URL is stored in the immutable event store and answered back: a password in it would be kept forever
            throw ApiException.invalidParam(at + "url", "'" + at + "url' must not carry credentials (user:password@); send them as 'token'");
        }
        String freshSecret = secret == null || secret.isEmpty() ? null : Validate.text(at + "secret", secret, 16, 256);
        String freshToken = token == null || token.isEmpty() ? null : Validate.text(at + "token", token, 1, 4096);
        return new Checked(url, freshSecret, freshToken);
    }

    public Mono<Registered> register(Caller caller, ServerWebExchange exchange, TaskId task, Checked webhook) {
        return Mono.zip(seal(caller, "webhook-secret", webhook.secret()), seal(caller, "webhook-token", webhook.token()))
                .flatMap(refs -> commands.send(new RegisterWebhook(WebhookId.of(task, webhook.url()), task, caller.ownerId(), webhook.url(),
                        refs.getT1().orElse(null), refs.getT2().orElse(null)), caller, exchange, ErrorCode.AGENT_NOT_FOUND));
    }

    private Mono<Optional<String>> seal(Caller caller, String purpose, String plaintext) {
        return plaintext == null ? Mono.just(Optional.empty()) : vault.seal(caller.ownerId(), purpose, plaintext).map(Optional::of);
    }

    /** The scheme is validated, as the contract says (and that there is a host to call). */
    private static boolean isHttpUrl(String url) {
        try {
            URI parsed = new URI(url);
            String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && parsed.getHost() != null;
        } catch (URISyntaxException malformed) {
            return false;
        }
    }
}

package org.agentplatform.webhook;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.agentplatform.kernel.webhook.WebhookId;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Where a webhook's callbacks go now: its URL and its current secret and token (opened from the vault),
 * from the fan-out's subscription table; empty once the webhook was removed. Attempts use the credentials
 * current when they are made, so a rotated secret signs the retries.
 */
public final class WebhookTargets {

    private final JdbcTemplate jdbc;
    private final SecretOpener secrets;

    /** Port: opens a vault reference ({@code secret:<id>}) to the secret it names. */
    @FunctionalInterface
    public interface SecretOpener {

        String open(String reference);
    }

    /** A live webhook's target. */
    public record Target(String url, String secret, String token) {
    }

    public WebhookTargets(JdbcTemplate jdbc, SecretOpener secrets) {
        this.jdbc = jdbc;
        this.secrets = secrets;
    }

    public Optional<Target> current(WebhookId webhook) {
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT url, secret_ref, token_ref FROM webhook_subscription"
                + " WHERE webhook_id = ? AND active", webhook.value());
        return rows.stream().findFirst().map(row -> new Target((String) row.get("url"), open((String) row.get("secret_ref")),
                open((String) row.get("token_ref"))));
    }

    private String open(String reference) {
        return reference == null ? null : secrets.open(reference);
    }
}

package org.agentplatform.infra.adapter.identity;

import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.UUID;
import org.agentplatform.api.auth.CredentialStore;
import org.agentplatform.api.auth.StoredApiKey;
import org.agentplatform.api.identity.AgentKeyRecord;
import org.agentplatform.api.identity.ApiKeyRecord;
import org.agentplatform.api.identity.IdentityDirectory;
import org.agentplatform.api.identity.NewApiKey;
import org.agentplatform.api.identity.UserAccount;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.identity.UserId;
import org.agentplatform.query.Page;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The built-in identity tables ({@code owner}, {@code app_user}, {@code api_key}, {@code external_identity})
 * read and written without blocking, through R2DBC. Identity is mutable credential state (revocation,
 * expiry, hashes), so it lives in tables, not in the event store.
 */
public final class PostgresIdentityStore implements CredentialStore, IdentityDirectory {

    private static final String AGENT_KEY_COLUMNS = "id, owner_id, agent_id, name, key_prefix, created_at, revoked_at";
    private static final String KEY_COLUMNS =
            "id, owner_id, name, key_prefix, rate_limit_per_minute, expires_at, created_at, revoked_at";

    private final DatabaseClient database;

    public PostgresIdentityStore(DatabaseClient database) {
        this.database = database;
    }

    @Override
    public Mono<StoredApiKey> findApiKey(byte[] hash) {
        return database.sql("SELECT id, owner_id, rate_limit_per_minute, expires_at, revoked_at FROM api_key WHERE key_hash = :hash")
                .bind("hash", hash)
                .map(row -> new StoredApiKey(
                        new ApiKeyId(row.get("id", UUID.class)),
                        new OwnerId(row.get("owner_id", UUID.class)),
                        row.get("rate_limit_per_minute", Integer.class),
                        row.get("expires_at", Instant.class),
                        row.get("revoked_at", Instant.class)))
                .one();
    }

    @Override
    public Mono<OwnerId> ownerOfExternalSubject(String issuer, String subject) {
        Mono<OwnerId> existing = database.sql("SELECT owner_id FROM external_identity WHERE issuer = :issuer AND subject = :subject")
                .bind("issuer", issuer)
                .bind("subject", subject)
                .map(row -> new OwnerId(row.get("owner_id", UUID.class)))
                .one();
        Mono<OwnerId> created = database.sql("""
                        WITH new_owner AS (
                            INSERT INTO owner (id, name, created_at) VALUES (:owner, :name, now()) RETURNING id
                        )
                        INSERT INTO external_identity (issuer, subject, owner_id, created_at)
                        SELECT :issuer, :subject, id, now() FROM new_owner
                        ON CONFLICT (issuer, subject) DO NOTHING
                        RETURNING owner_id""")
                .bind("owner", UUID.randomUUID())
                .bind("name", subject)
                .bind("issuer", issuer)
                .bind("subject", subject)
                .map(row -> new OwnerId(row.get("owner_id", UUID.class)))
                .one();
        // a concurrent first request may win the insert; then read what it wrote
        return existing.switchIfEmpty(created).switchIfEmpty(existing);
    }

    @Override
    public Mono<OwnerId> ownerOfActiveUser(UUID userId) {
        return database.sql("SELECT owner_id FROM app_user WHERE id = :id AND disabled_at IS NULL")
                .bind("id", userId)
                .map(row -> new OwnerId(row.get("owner_id", UUID.class)))
                .one();
    }

    @Override
    public Mono<UserAccount> findUserByEmail(String email) {
        return database.sql("SELECT id, owner_id, email, password_hash FROM app_user WHERE lower(email) = lower(:email)"
                        + " AND disabled_at IS NULL")
                .bind("email", email)
                .map(row -> new UserAccount(
                        new UserId(row.get("id", UUID.class)),
                        new OwnerId(row.get("owner_id", UUID.class)),
                        row.get("email", String.class),
                        row.get("password_hash", String.class)))
                .one();
    }

    @Override
    public Mono<ApiKeyRecord> createApiKey(NewApiKey key) {
        DatabaseClient.GenericExecuteSpec insert = database.sql("INSERT INTO api_key"
                        + " (id, owner_id, name, key_prefix, key_hash, rate_limit_per_minute, expires_at, created_at)"
                        + " VALUES (:id, :owner, :name, :prefix, :hash, :rate, :expires, :created) RETURNING " + KEY_COLUMNS)
                .bind("id", key.id().value())
                .bind("owner", key.ownerId().value())
                .bind("name", key.name())
                .bind("prefix", key.keyPrefix())
                .bind("hash", key.keyHash())
                .bind("rate", key.rateLimitPerMinute())
                .bind("created", key.createdAt());
        insert = key.expiresAt() == null ? insert.bindNull("expires", Instant.class) : insert.bind("expires", key.expiresAt());
        return insert.map(PostgresIdentityStore::apiKey).one();
    }

    @Override
    public Mono<Page<ApiKeyRecord>> listApiKeys(OwnerId ownerId, @Nullable Long before, int limit) {
        return Page.newestFirst(database, "SELECT " + KEY_COLUMNS + ", list_offset FROM api_key WHERE owner_id = :owner"
                + " AND revoked_at IS NULL", query -> query.bind("owner", ownerId.value()), before, limit, PostgresIdentityStore::apiKey);
    }

    @Override
    public Mono<ApiKeyRecord> revokeApiKey(OwnerId ownerId, ApiKeyId id, Instant revokedAt) {
        return database.sql("UPDATE api_key SET revoked_at = :at WHERE id = :id AND owner_id = :owner AND revoked_at IS NULL"
                        + " RETURNING " + KEY_COLUMNS)
                .bind("at", revokedAt)
                .bind("id", id.value())
                .bind("owner", ownerId.value())
                .map(PostgresIdentityStore::apiKey)
                .one();
    }

    private static ApiKeyRecord apiKey(Readable row) {
        return new ApiKeyRecord(
                new ApiKeyId(row.get("id", UUID.class)),
                new OwnerId(row.get("owner_id", UUID.class)),
                row.get("name", String.class),
                row.get("key_prefix", String.class),
                row.get("rate_limit_per_minute", Integer.class),
                row.get("expires_at", Instant.class),
                row.get("created_at", Instant.class),
                row.get("revoked_at", Instant.class));
    }

    /**
     * One statement: the lowest slot of the agent's three that no active key holds; a concurrent create taking the same slot
     * makes this one insert nothing (unique while active), so it tries again with what is left.
     */
    @Override
    public Mono<AgentKeyRecord> createAgentKey(AgentKeyRecord key, byte[] keyHash) {
        Mono<AgentKeyRecord> insert = database.sql("INSERT INTO agent_key (id, owner_id, agent_id, name, key_prefix, key_hash, slot, created_at)"
                        + " SELECT :id, :owner, :agent, :name, :prefix, :hash, slot, :created FROM generate_series(1, :max) AS slot"
                        + " WHERE slot NOT IN (SELECT k.slot FROM agent_key k WHERE k.agent_id = :agent AND k.revoked_at IS NULL)"
                        + " ORDER BY slot LIMIT 1 ON CONFLICT DO NOTHING RETURNING " + AGENT_KEY_COLUMNS)
                .bind("id", key.id())
                .bind("owner", key.ownerId().value())
                .bind("agent", key.agentId().value())
                .bind("name", key.name())
                .bind("prefix", key.keyPrefix())
                .bind("hash", keyHash)
                .bind("max", AgentKeyRecord.MAX_ACTIVE)
                .bind("created", key.createdAt())
                .map(PostgresIdentityStore::agentKey)
                .one();
        return insert.switchIfEmpty(Mono.defer(() -> database.sql("SELECT count(*) FROM agent_key WHERE agent_id = :agent AND revoked_at IS NULL")
                .bind("agent", key.agentId().value())
                .map(row -> row.get(0, Long.class))
                .one()
                .flatMap(active -> active < AgentKeyRecord.MAX_ACTIVE ? createAgentKey(key, keyHash) : Mono.empty())));
    }

    @Override
    public Flux<AgentKeyRecord> listAgentKeys(AgentId agentId) {
        return database.sql("SELECT " + AGENT_KEY_COLUMNS + " FROM agent_key WHERE agent_id = :agent AND revoked_at IS NULL"
                        + " ORDER BY created_at DESC, id")
                .bind("agent", agentId.value())
                .map(PostgresIdentityStore::agentKey)
                .all();
    }

    @Override
    public Mono<AgentKeyRecord> revokeAgentKey(AgentId agentId, UUID keyId, Instant revokedAt) {
        return database.sql("UPDATE agent_key SET revoked_at = :at WHERE id = :id AND agent_id = :agent AND revoked_at IS NULL"
                        + " RETURNING " + AGENT_KEY_COLUMNS)
                .bind("at", revokedAt)
                .bind("id", keyId)
                .bind("agent", agentId.value())
                .map(PostgresIdentityStore::agentKey)
                .one();
    }

    private static AgentKeyRecord agentKey(Readable row) {
        return new AgentKeyRecord(
                row.get("id", UUID.class),
                new OwnerId(row.get("owner_id", UUID.class)),
                new AgentId(row.get("agent_id", UUID.class)),
                row.get("name", String.class),
                row.get("key_prefix", String.class),
                row.get("created_at", Instant.class),
                row.get("revoked_at", Instant.class));
    }
}

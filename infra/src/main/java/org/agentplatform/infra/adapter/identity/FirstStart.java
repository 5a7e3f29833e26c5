package org.agentplatform.infra.adapter.identity;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.agentplatform.api.auth.ApiKeySecret;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * On an empty database: create the first owner and one {@code oag_} key, print the key once on the
 * console (never through the logs) and write it to {@code <dataDir>/first-api-key} with mode 0600.
 * An advisory lock keeps two nodes starting together from both doing it.
 */
public final class FirstStart {

    public static final String KEY_FILE = "first-api-key";
    private static final Logger log = LoggerFactory.getLogger(FirstStart.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public FirstStart(JdbcTemplate jdbc, TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** The first owner, creating it (and announcing its key) when the database has none. */
    public Started ensure(int keyRateLimitPerMinute, Path dataDir) {
        Created created = transactions.execute(status -> {
            jdbc.query("SELECT pg_advisory_xact_lock(hashtext('agent-platform:first-start'))", row -> null);
            List<UUID> existing = jdbc.queryForList("SELECT owner_id FROM bootstrap", UUID.class);
            if (!existing.isEmpty()) {
                return new Created(new OwnerId(existing.getFirst()), Optional.empty());
            }
            Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            OwnerId owner = OwnerId.random();
            ApiKeySecret key = ApiKeySecret.generate();
            jdbc.update("INSERT INTO owner (id, name, created_at) VALUES (?, ?, ?)", owner.value(), "default", Timestamp.from(now));
            jdbc.update("INSERT INTO api_key (id, owner_id, name, key_prefix, key_hash, rate_limit_per_minute, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    ApiKeyId.random().value(), owner.value(), "first key", key.displayPrefix(), key.sha256(),
                    keyRateLimitPerMinute, Timestamp.from(now));
            jdbc.update("INSERT INTO bootstrap (owner_id, completed_at) VALUES (?, ?)", owner.value(), Timestamp.from(now));
            return new Created(owner, Optional.of(key));
        });
        created.key().ifPresent(key -> keep(created.owner(), key, dataDir));
        return new Started(created.owner(), created.key().orElse(null));
    }

    /** Writes the first key to its 0600 file in the data directory. */
    private static void keep(OwnerId owner, ApiKeySecret key, Path dataDir) {
        Path file = dataDir.resolve(KEY_FILE);
        try {
            Files.createDirectories(dataDir);
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, key.plaintext() + "\n", StandardCharsets.US_ASCII);
        } catch (IOException failure) {
            throw new UncheckedIOException("Cannot write the first API key to " + file, failure);
        }
        log.atInfo().addKeyValue("owner_id", owner.toString()).addKeyValue("key_prefix", key.displayPrefix())
                .addKeyValue("file", file.toAbsolutePath().toString()).log("first start: created the first owner and API key");
    }

    /**
     * Prints the first key once, when this start created it, with a request to try against {@code serviceUrl} (the port the
     * server really listens on; null when no server runs, as for a command).
     */
    public static void announce(Started started, Path dataDir, PrintStream console, String serviceUrl) {
        if (started.newKey() == null) {
            return;
        }
        Path file = dataDir.resolve(KEY_FILE);
        console.println();
        console.println("  First start: created owner " + started.owner() + " and its first API key (shown once):");
        console.println();
        console.println("    " + started.newKey().plaintext());
        console.println();
        console.println("  A copy is in " + file.toAbsolutePath() + " (mode 0600)." + (serviceUrl == null ? "" : " Try:"));
        if (serviceUrl != null) {
            console.println("    curl -H \"Authorization: Bearer $(cat " + file + ")\" " + serviceUrl + "/api/v1/providers");
        }
        console.println();
    }

    /** The first owner, and the key this start created (null when an earlier start did). */
    public record Started(OwnerId owner, ApiKeySecret newKey) {
    }

    private record Created(OwnerId owner, Optional<ApiKeySecret> key) {
    }
}

package org.agentplatform.infra.adapter.secret;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.crypto.AEADBadTagException;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Each owner's data keys ({@code owner_data_key}): a random AES-256 key per owner, made on the owner's first sealed
 * text, kept sealed by the vault key (with the key's id and owner as associated data), never in the event store. A text
 * is sealed with AES-256-GCM under the owner's current key, with the owner's id as associated data, so a sealed text
 * copied into another owner's content does not open there.
 *
 * <p>{@link #erase} destroys an owner's key material (the rows stay, with {@code erased_at}, so a sealed text is known
 * as erased rather than lost); the owner's next text gets a new key. Keys are held in memory once read: this node
 * forgets an erased owner's keys at once, the others within about {@link #FRESHNESS} (they read a held key's row again,
 * in the background, once it is older than that).
 */
public final class OwnerDataKeys implements PersonalContent {

    /** How long a node trusts a key it read without reading its row again: the bound on an erasure reaching every node. */
    public static final Duration FRESHNESS = Duration.ofSeconds(10);

    private static final int KEY_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final JdbcTemplate jdbc;
    private final SecretKey vaultKey;
    private final Clock clock;
    /** Keys read, by id; an erased key is held as such (no material). */
    private final Map<UUID, Held> keys = new ConcurrentHashMap<>();
    /** Each owner's current key, by owner. */
    private final Map<OwnerId, Held> current = new ConcurrentHashMap<>();
    /** Erasures on this node so far: a key read in the background while one ran is not held. */
    private final AtomicLong erasures = new AtomicLong();

    /**
     * A key as read at {@code readAt} (nanoTime); {@code key} null once erased. Past {@link #FRESHNESS} it is read again
     * in the background, once ({@code rereading}), while it goes on serving: no caller waits for a key it holds, and none
     * blocks a thread it does not own (an event loop) but on a key it never read.
     */
    private record Held(UUID id, OwnerId owner, SecretKey key, long readAt, AtomicBoolean rereading) {

        Held(UUID id, OwnerId owner, SecretKey key) {
            this(id, owner, key, System.nanoTime(), new AtomicBoolean());
        }

        boolean stale() {
            return System.nanoTime() - readAt >= FRESHNESS.toNanos();
        }
    }

    public OwnerDataKeys(JdbcTemplate jdbc, SecretKey vaultKey, Clock clock) {
        this.jdbc = jdbc;
        this.vaultKey = vaultKey;
        this.clock = clock;
    }

    @Override
    public String seal(OwnerId owner, String plaintext) {
        if (plaintext == null || plaintext.isEmpty()) {
            return plaintext;
        }
        Held key = currentKey(owner);
        byte[] nonce = AesGcm.nonce();
        byte[] sealed = AesGcm.encrypt(key.key(), nonce, associatedData(owner), plaintext.getBytes(StandardCharsets.UTF_8));
        return SEALED_PREFIX + key.id() + ":" + ENCODER.encodeToString(ByteBuffer.allocate(nonce.length + sealed.length)
                .put(nonce).put(sealed).array());
    }

    @Override
    public String open(OwnerId owner, String stored) {
        if (!PersonalContent.isSealed(stored)) {
            return stored;
        }
        int separator = stored.indexOf(':', SEALED_PREFIX.length());
        UUID id;
        byte[] sealed;
        try {
            id = UUID.fromString(stored.substring(SEALED_PREFIX.length(), separator));
            sealed = DECODER.decode(stored.substring(separator + 1));
        } catch (IllegalArgumentException | IndexOutOfBoundsException notOurs) {
            return stored; // a clear text from before sealing that only looks sealed
        }
        Held key = key(id);
        if (key == null || key.key() == null || !key.owner().equals(owner) || sealed.length <= AesGcm.NONCE_BYTES) {
            return ERASED;
        }
        byte[] nonce = Arrays.copyOfRange(sealed, 0, AesGcm.NONCE_BYTES);
        byte[] ciphertext = Arrays.copyOfRange(sealed, AesGcm.NONCE_BYTES, sealed.length);
        try {
            return new String(AesGcm.decrypt(key.key(), nonce, associatedData(owner), ciphertext), StandardCharsets.UTF_8);
        } catch (IllegalStateException unreadable) {
            if (unreadable.getCause() instanceof AEADBadTagException) {
                return ERASED;
            }
            throw unreadable;
        }
    }

    /**
     * Destroys every key of the owner (their material; the rows stay, marked erased) and forgets them on this node.
     * Returns how many keys were destroyed (0: the owner had sealed nothing, or was erased already).
     */
    public int erase(OwnerId owner, Instant at) {
        int destroyed = jdbc.update("UPDATE owner_data_key SET nonce = NULL, sealed_key = NULL, erased_at = ?"
                + " WHERE owner_id = ? AND erased_at IS NULL", Timestamp.from(at), owner.value());
        forget(owner);
        return destroyed;
    }

    /**
     * Forgets the owner's keys on this node, and any read of them under way: called again once the erasure committed, since
     * a use between {@link #erase} and the commit still reads the keys' rows as they were.
     */
    public void forget(OwnerId owner) {
        erasures.incrementAndGet();
        current.remove(owner);
        keys.values().removeIf(held -> held.owner().equals(owner));
    }

    private Held currentKey(OwnerId owner) {
        Held held = current.get(owner);
        if (held == null) {
            return remember(readCurrent(owner), owner, true);
        }
        return rereadWhenStale(held, () -> readCurrent(owner), read -> remember(read, owner, false));
    }

    private Held key(UUID id) {
        Held held = keys.get(id);
        if (held == null) {
            return remember(read(id), id);
        }
        return rereadWhenStale(held, () -> read(id), read -> remember(read, id));
    }

    /**
     * {@code held}, read again in the background once it is stale (by one caller): what its row says is held then, unless
     * an erasure ran meanwhile (what was read may be gone: the next use reads it again). A failed read is tried again by
     * the next use.
     */
    private Held rereadWhenStale(Held held, Supplier<Held> read, Consumer<Held> remember) {
        if (held.stale() && held.rereading().compareAndSet(false, true)) {
            long erasuresBefore = erasures.get();
            Thread.startVirtualThread(() -> {
                try {
                    Held fresh = read.get();
                    if (erasures.get() == erasuresBefore) {
                        remember.accept(fresh);
                    }
                } catch (RuntimeException unreadable) {
                    held.rereading().set(false);
                }
            });
        }
        return held;
    }

    /** Holds {@code read} as the owner's current key; none (erased, never made): one is made when {@code make}. */
    private Held remember(Held read, OwnerId owner, boolean make) {
        Held key = read == null && make ? make(owner) : read;
        if (key == null) {
            current.remove(owner);
            return null;
        }
        current.put(owner, key);
        keys.put(key.id(), key);
        return key;
    }

    private Held remember(Held read, UUID id) {
        if (read == null) {
            keys.remove(id);
        } else {
            keys.put(id, read);
        }
        return read;
    }

    /** The owner's current key as its row says (null: none since its last erasure). */
    private Held readCurrent(OwnerId owner) {
        List<Held> rows = jdbc.query("SELECT id, nonce, sealed_key FROM owner_data_key WHERE owner_id = ? AND erased_at IS NULL",
                (row, number) -> held(row.getObject("id", UUID.class), owner, row.getBytes("nonce"), row.getBytes("sealed_key")),
                owner.value());
        return rows.isEmpty() ? null : rows.getFirst();
    }

    /** A key as its row says (null: no such key). */
    private Held read(UUID id) {
        List<Held> rows = jdbc.query("SELECT owner_id, nonce, sealed_key FROM owner_data_key WHERE id = ?",
                (row, number) -> held(id, new OwnerId(row.getObject("owner_id", UUID.class)), row.getBytes("nonce"),
                        row.getBytes("sealed_key")), id);
        return rows.isEmpty() ? null : rows.getFirst();
    }

    /** A new current key for the owner; when another node made one at the same moment, that one. */
    private Held make(OwnerId owner) {
        UUID id = UUID.randomUUID();
        byte[] material = new byte[KEY_BYTES];
        RANDOM.nextBytes(material);
        byte[] nonce = AesGcm.nonce();
        byte[] sealed = AesGcm.encrypt(vaultKey, nonce, keyAssociatedData(id, owner), material);
        int made = jdbc.update("INSERT INTO owner_data_key (id, owner_id, nonce, sealed_key, created_at) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (owner_id) WHERE erased_at IS NULL DO NOTHING", id, owner.value(), nonce, sealed,
                Timestamp.from(clock.instant()));
        return made == 1 ? new Held(id, owner, new SecretKeySpec(material, "AES")) : readCurrent(owner);
    }

    private Held held(UUID id, OwnerId owner, byte[] nonce, byte[] sealedKey) {
        SecretKey key = sealedKey == null ? null
                : new SecretKeySpec(AesGcm.decrypt(vaultKey, nonce, keyAssociatedData(id, owner), sealedKey), "AES");
        return new Held(id, owner, key);
    }

    private static byte[] associatedData(OwnerId owner) {
        return owner.value().toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] keyAssociatedData(UUID id, OwnerId owner) {
        return ("owner-data-key:" + id + ":" + owner).getBytes(StandardCharsets.US_ASCII);
    }
}

package org.agentplatform.infra.adapter.identity;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.identity.UserId;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.password.PasswordEncoder;

/** Creates users for the CLI: email unique (case-insensitively), password stored as an Argon2id hash. */
public final class UserAdmin {

    private final JdbcTemplate jdbc;
    private final PasswordEncoder passwords;
    private final Clock clock;

    public UserAdmin(JdbcTemplate jdbc, PasswordEncoder passwords, Clock clock) {
        this.jdbc = jdbc;
        this.passwords = passwords;
        this.clock = clock;
    }

    public UserId create(String email, CharSequence password, OwnerId owner) {
        if (!ownerExists(owner)) {
            throw new IllegalArgumentException("No owner " + owner);
        }
        UserId user = UserId.random();
        try {
            jdbc.update("INSERT INTO app_user (id, owner_id, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                    user.value(), owner.value(), email, passwords.encode(password),
                    Timestamp.from(clock.instant().truncatedTo(ChronoUnit.MILLIS)));
        } catch (DuplicateKeyException taken) {
            throw new IllegalArgumentException("A user with email " + email + " already exists", taken);
        }
        return user;
    }

    /** Disables the user with that email (login refused, its tokens refused once caches expire); false when there is none. */
    public boolean disable(String email) {
        return jdbc.update("UPDATE app_user SET disabled_at = COALESCE(disabled_at, ?) WHERE lower(email) = lower(?)",
                Timestamp.from(clock.instant().truncatedTo(ChronoUnit.MILLIS)), email) == 1;
    }

    public OwnerId createOwner(String name) {
        OwnerId owner = OwnerId.random();
        jdbc.update("INSERT INTO owner (id, name, created_at) VALUES (?, ?, ?)", owner.value(), name,
                Timestamp.from(clock.instant().truncatedTo(ChronoUnit.MILLIS)));
        return owner;
    }

    private boolean ownerExists(OwnerId owner) {
        return !jdbc.queryForList("SELECT 1 FROM owner WHERE id = ?", Integer.class, owner.value()).isEmpty();
    }
}

package org.agentplatform.api.identity;

import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.identity.UserId;

/** A user who can log in; {@code passwordHash} is the KDF output, never the password. */
public record UserAccount(UserId id, OwnerId ownerId, String email, String passwordHash) {

    @Override
    public String toString() {
        return "UserAccount[id=" + id + ", ownerId=" + ownerId + "]";
    }
}

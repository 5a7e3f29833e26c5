package org.agentplatform.infra.adapter.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import javax.crypto.SecretKey;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Each owner's data key seals its texts, opens them for that owner only, and once destroyed opens nothing it sealed. */
class OwnerDataKeysTest extends ApiTest {

    @Autowired
    OwnerDataKeys keys;

    @Autowired
    SecretKey vaultKey;

    @Test
    void aSealedTextOpensForItsOwnerOnlyAndIsKeptUnderTheVaultKey() {
        OwnerId owner = OwnerId.random();
        String sealed = keys.seal(owner, "meet me at noon");
        assertThat(sealed).startsWith(PersonalContent.SEALED_PREFIX).doesNotContain("noon");
        assertThat(keys.seal(owner, "meet me at noon")).as("a fresh nonce each time").isNotEqualTo(sealed);
        assertThat(keys.open(owner, sealed)).isEqualTo("meet me at noon");
        assertThat(keys.open(OwnerId.random(), sealed)).as("copied into another owner's content").isEqualTo(PersonalContent.ERASED);
        // another node (a reader of its own, nothing held in memory) opens it from the row
        assertThat(new OwnerDataKeys(jdbc(), vaultKey, Clock.systemUTC()).open(owner, sealed)).isEqualTo("meet me at noon");
        assertThat(jdbc().queryForObject("SELECT count(*) FROM owner_data_key WHERE owner_id = ? AND erased_at IS NULL", Integer.class,
                owner.value())).as("one key for all of the owner's texts").isEqualTo(1);
    }

    @Test
    void clearTextsPassThrough() {
        OwnerId owner = OwnerId.random();
        assertThat(keys.seal(owner, "")).isEmpty();
        assertThat(keys.seal(owner, null)).isNull();
        assertThat(keys.open(owner, "stored before sealing")).isEqualTo("stored before sealing");
        assertThat(keys.open(owner, "sealed:v1:not-a-key:zzz")).as("a clear text that only looks sealed").isEqualTo("sealed:v1:not-a-key:zzz");
    }

    @Test
    void erasingDestroysTheKeyEverywhereAndTheNextTextGetsANewOne() {
        OwnerId owner = OwnerId.random();
        String before = keys.seal(owner, "before");
        OwnerDataKeys otherNode = new OwnerDataKeys(jdbc(), vaultKey, Clock.systemUTC());
        assertThat(otherNode.open(owner, before)).isEqualTo("before");

        assertThat(keys.erase(owner, Instant.now())).isEqualTo(1);
        assertThat(keys.open(owner, before)).isEqualTo(PersonalContent.ERASED);
        assertThat(jdbc().queryForObject("SELECT count(*) FROM owner_data_key WHERE owner_id = ? AND sealed_key IS NULL"
                + " AND nonce IS NULL AND erased_at IS NOT NULL", Integer.class, owner.value())).as("the material is gone").isEqualTo(1);
        assertThat(new OwnerDataKeys(jdbc(), vaultKey, Clock.systemUTC()).open(owner, before)).as("a node that reads the row")
                .isEqualTo(PersonalContent.ERASED);

        String after = keys.seal(owner, "after");
        assertThat(keys.open(owner, after)).isEqualTo("after");
        assertThat(keys.open(owner, before)).isEqualTo(PersonalContent.ERASED);
        assertThat(keys.erase(owner, Instant.now())).isEqualTo(1);
        assertThat(keys.erase(owner, Instant.now())).as("nothing left to destroy").isZero();
    }
}

package org.agentplatform.kernel.privacy;

import java.util.function.UnaryOperator;
import org.agentplatform.kernel.identity.OwnerId;

/**
 * Port: an owner's personal content (task and conversation messages, replies, streamed chunks) is sealed with that
 * owner's data key before it is stored anywhere (the event store, read models, a runtime's tables), and opened only on
 * its way out to that owner (a response, a stream, a runtime's model). Erasing an owner's content destroys its keys:
 * from then on everything sealed with them opens as {@link #ERASED}, while the events, their chain and the Merkle
 * log's proofs stay as they were, over the sealed bytes (crypto-shredding).
 *
 * <p>A sealed text is {@code sealed:v1:<key id>:<base64url of nonce and ciphertext>}; {@link #isSealed} tells it from a
 * clear text (one stored before this release, or the empty text, which is not sealed).
 */
public interface PersonalContent {

    /** What an erased owner's content reads as, everywhere. */
    String ERASED = "[erased]";

    String SEALED_PREFIX = "sealed:v1:";

    /** Seals {@code plaintext} with the owner's current data key (made on first use); null and "" stay as they are. */
    String seal(OwnerId owner, String plaintext);

    /**
     * The plaintext of {@code stored} for {@code owner}: itself when it is not sealed (null, "", content stored before
     * sealing), {@link #ERASED} when the owner's key was destroyed or the text was sealed for another owner.
     */
    String open(OwnerId owner, String stored);

    /** {@link #open} for one owner: what a response, stream or model gets that owner's texts through. */
    default UnaryOperator<String> opener(OwnerId owner) {
        return stored -> open(owner, stored);
    }

    /** {@link #seal} for one owner. */
    default UnaryOperator<String> sealer(OwnerId owner) {
        return plaintext -> seal(owner, plaintext);
    }

    static boolean isSealed(String text) {
        return text != null && text.startsWith(SEALED_PREFIX);
    }

    /** No sealing: the text is stored as given (Axon fixture tests, tools that read clear stores). */
    PersonalContent CLEAR = new PersonalContent() {

        @Override
        public String seal(OwnerId owner, String plaintext) {
            return plaintext;
        }

        @Override
        public String open(OwnerId owner, String stored) {
            return stored;
        }
    };
}

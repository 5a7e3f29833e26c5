package org.agentplatform.infra.audit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.agentplatform.kernel.audit.MerkleTree;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The auditor's offline checks of the log's proofs (docs/audit.md, "The tree"), from what the API answered and nothing
 * else: a signed tree head (its JWS's claims, and its signature when a JWKS is given), an event's export line and its
 * inclusion proof, or two heads and the consistency proof between them. Each answers the first thing that does not
 * hold, or nothing.
 */
public final class AuditProofs {

    private static final HexFormat HEX = HexFormat.of();

    private AuditProofs() {
    }

    /** A tree head as its JWS signs it. */
    record SignedHead(long size, byte[] root) {
    }

    /** Whether the event of {@code exportLine} is in the tree of {@code head}, as {@code proof} ({@code GET .../proof}) says. */
    public static Optional<String> inclusion(JsonNode head, JsonNode exportLine, JsonNode proof, @Nullable JWKSet keys) {
        try {
            SignedHead signed = signed(data(head), keys);
            JsonNode stored = exportLine.get("stored");
            JsonNode answer = data(proof);
            if (answer.get("tree_size").asLong() != signed.size()) {
                return Optional.of("the proof is for a tree of " + answer.get("tree_size").asLong() + " events, the head's has " + signed.size());
            }
            if (answer.get("global_index").asLong() != stored.get("global_index").asLong()) {
                return Optional.of("the proof is of the event at global index " + answer.get("global_index").asLong() + ", the line's is at "
                        + stored.get("global_index").asLong());
            }
            byte[] leaf = MerkleTree.leafHash(AuditVerifier.storedEvent(stored).record());
            boolean holds = MerkleTree.verifyInclusion(answer.get("leaf_index").asLong(), signed.size(), leaf, hashes(answer.get("audit_path")),
                    signed.root());
            return holds ? Optional.empty() : Optional.of("the event at global index " + stored.get("global_index").asLong()
                    + " is not proved in the tree of " + signed.size() + " events: its bytes, the proof or the head differ");
        } catch (IllegalArgumentException | NullPointerException | ParseException | JOSEException unreadable) {
            return Optional.of("unreadable: " + unreadable.getMessage());
        }
    }

    /** Whether the tree of {@code first} is a prefix of that of {@code second}, as {@code proof} ({@code GET .../consistency}) says. */
    public static Optional<String> consistency(JsonNode first, JsonNode second, JsonNode proof, @Nullable JWKSet keys) {
        try {
            SignedHead from = signed(data(first), keys);
            SignedHead to = signed(data(second), keys);
            JsonNode answer = data(proof);
            if (answer.get("first").asLong() != from.size() || answer.get("second").asLong() != to.size()) {
                return Optional.of("the proof is from " + answer.get("first").asLong() + " to " + answer.get("second").asLong()
                        + " events, the heads are of " + from.size() + " and " + to.size());
            }
            boolean holds = MerkleTree.verifyConsistency(from.size(), to.size(), from.root(), to.root(), hashes(answer.get("consistency_path")));
            return holds ? Optional.empty() : Optional.of("the tree of " + to.size() + " events does not extend that of " + from.size()
                    + ": something in the first was changed, or the proof or a head differs");
        } catch (IllegalArgumentException | NullPointerException | ParseException | JOSEException unreadable) {
            return Optional.of("unreadable: " + unreadable.getMessage());
        }
    }

    /** The head as its JWS signs it: the claims must say what the head says, and the signature verify with {@code keys} if given. */
    private static SignedHead signed(JsonNode head, @Nullable JWKSet keys) throws ParseException, JOSEException {
        SignedJWT jws = SignedJWT.parse(head.get("jws").asString());
        if (keys != null) {
            JWK key = keys.getKeyByKeyId(jws.getHeader().getKeyID());
            if (!(key instanceof RSAKey rsa) || !jws.verify(new RSASSAVerifier(rsa))) {
                throw new IllegalArgumentException("the tree head of " + head.get("tree_size") + " events is not signed by a key of the JWKS");
            }
        }
        JWTClaimsSet claims = jws.getJWTClaimsSet();
        Long size = claims.getLongClaim("tree_size");
        String root = claims.getStringClaim("root_hash");
        if (size == null || root == null || size != head.get("tree_size").asLong() || !root.equals(head.get("root_hash").asString())) {
            throw new IllegalArgumentException("the tree head of " + head.get("tree_size") + " events is not the one its JWS signs");
        }
        return new SignedHead(size, HEX.parseHex(root));
    }

    /** An API answer's {@code data} when given the whole answer (its envelope), else the object itself. */
    private static JsonNode data(JsonNode answer) {
        return answer.has("success") && answer.has("data") ? answer.get("data") : answer;
    }

    private static List<byte[]> hashes(JsonNode values) {
        return values.valueStream().map(value -> HEX.parseHex(value.asString())).toList();
    }
}

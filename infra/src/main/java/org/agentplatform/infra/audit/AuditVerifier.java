package org.agentplatform.infra.audit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.SignedJWT;
import java.io.BufferedReader;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.agentplatform.infra.eventstore.StoredTokens;
import org.agentplatform.infra.replay.StoredEvent;
import org.agentplatform.kernel.audit.MerkleTree;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Re-checks the audit chain (docs/audit.md): every link from the first, against the events as they are stored now;
 * the Merkle tree's every node, rebuilt from the same events, and the root of each signed tree head; that no event of
 * the store that the chain's processor has gone past is left out of it; and every checkpoint against the chain and its
 * signature (with the platform's public keys). Or the same over an export, line by line. The first thing that does not
 * match is the answer, naming its event.
 */
public final class AuditVerifier {

    private static final int PAGE = 1000;
    private static final HexFormat HEX = HexFormat.of();

    /** The outcome: how many events were checked, and the first mismatch, if any. */
    public record Result(long checked, Optional<String> mismatch) {

        static Result ok(long checked) {
            return new Result(checked, Optional.empty());
        }

        static Result failed(long checked, String mismatch) {
            return new Result(checked, Optional.of(mismatch));
        }
    }

    /** A link of the chain and the event it links, as the store holds it now (null when it is gone). */
    private record Link(long position, long globalIndex, byte[] link, StoredEvent event) {
    }

    private AuditVerifier() {
    }

    public static Result verifyStore(JdbcTemplate jdbc) {
        byte[] previous = StoredEvent.GENESIS;
        long expected = 1;
        Map<Long, byte[]> signedRoots = new HashMap<>();
        jdbc.query("SELECT position, root_hash FROM audit_checkpoint WHERE root_hash IS NOT NULL", row -> {
            signedRoots.put(row.getLong("position"), row.getBytes("root_hash"));
        });
        Map<Integer, byte[]> edge = new HashMap<>();
        while (true) {
            List<Link> page = jdbc.query("SELECT a.position, a.global_index AS chained_index, a.link, e.* FROM audit_event a"
                    + " LEFT JOIN domain_event_entry e ON e.global_index = a.global_index WHERE a.position >= ? ORDER BY a.position LIMIT ?",
                    (row, n) -> new Link(row.getLong("position"), row.getLong("chained_index"), row.getBytes("link"),
                            row.getObject("event_identifier") == null ? null : StoredEvent.of(row)), expected, PAGE);
            List<Object[]> nodes = new ArrayList<>(page.size() * 2);
            for (Link row : page) {
                long position = row.position();
                long index = row.globalIndex();
                if (position != expected) {
                    return Result.failed(expected - 1, "the chain has no link at position " + expected + " (next is " + position
                            + ", global index " + index + "): a link was removed");
                }
                StoredEvent event = row.event();
                if (event == null) {
                    return Result.failed(expected - 1, "event at global index " + index + " (position " + position
                            + ") is missing from the event store");
                }
                byte[] record = event.record();
                byte[] link = row.link();
                if (!Arrays.equals(StoredEvent.link(previous, record), link)) {
                    return Result.failed(expected - 1, "event at global index " + index + " (position " + position + ", "
                            + event.eventIdentifier() + ") does not match its link: its stored bytes or its place changed");
                }
                AuditTree.add(position - 1, MerkleTree.leafHash(record), edge, nodes);
                byte[] signedRoot = signedRoots.get(position);
                if (signedRoot != null && !Arrays.equals(MerkleTree.root(position, node -> edge.get(node.level())), signedRoot)) {
                    return Result.failed(expected - 1, "the tree head signed at size " + position + " is not the root of the events"
                            + " up to global index " + index);
                }
                previous = link;
                expected++;
            }
            Optional<String> edited = treeMismatch(jdbc, nodes);
            if (edited.isPresent()) {
                return Result.failed(expected - 1 - page.size(), edited.get());
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        long checked = expected - 1;
        Optional<Long> left = leftOut(jdbc);
        if (left.isPresent()) {
            return Result.failed(checked, "event at global index " + left.get() + " is in the event store but not in the chain");
        }
        return checkpoints(jdbc, checked);
    }

    /**
     * The first event of the store that the chain passed over: one its processor has gone past (every event it passes it
     * chains, in the same commit as its token) yet is not in the chain. An event its processor has not reached, or one
     * it still awaits in a gap of its token (a transaction that took a lower global index and committed after later ones
     * were chained), is not left out but not chained yet: the chain takes it in its next batch. The token is read before
     * the events, so an event chained meanwhile is not taken for one passed over.
     */
    private static Optional<Long> leftOut(JdbcTemplate jdbc) {
        StoredTokens.Progress chain = StoredTokens.progress(jdbc, AuditChain.GROUP);
        return jdbc.queryForList("SELECT global_index FROM domain_event_entry e WHERE global_index <= ?"
                        + " AND NOT EXISTS (SELECT 1 FROM audit_event a WHERE a.global_index = e.global_index) ORDER BY global_index"
                        + " LIMIT ?", Long.class, chain.position(), chain.gaps().size() + 1)
                .stream().filter(chain::passed).findFirst();
    }

    /** The first node of the stored Merkle tree that differs from {@code computed} (rows of {@link AuditTree#add}), if any. */
    private static Optional<String> treeMismatch(JdbcTemplate jdbc, List<Object[]> computed) {
        if (computed.isEmpty()) {
            return Optional.empty();
        }
        Map<MerkleTree.Node, byte[]> stored = new AuditTree(jdbc).stored(computed.stream()
                .map(row -> new MerkleTree.Node((Short) row[0], (Long) row[1])).toList());
        for (Object[] row : computed) {
            MerkleTree.Node node = new MerkleTree.Node((Short) row[0], (Long) row[1]);
            if (!Arrays.equals(stored.get(node), (byte[]) row[2])) {
                return Optional.of("the Merkle tree's node at level " + node.level() + ", index " + node.index() + " (over positions "
                        + (node.firstLeaf() + 1) + " to " + (node.firstLeaf() + (1L << node.level())) + ") is "
                        + (stored.containsKey(node) ? "not the hash of its events" : "missing"));
            }
        }
        return Optional.empty();
    }

    private static Result checkpoints(JdbcTemplate jdbc, long checked) {
        Map<String, RSAPublicKey> keys = new HashMap<>();
        jdbc.query("SELECT kid, public_key FROM signing_key", row -> {
            keys.put(row.getString("kid"), publicKey(row.getBytes("public_key")));
        });
        List<Map<String, Object>> checkpoints = jdbc.queryForList("SELECT c.position, c.link, c.root_hash, c.jws, a.link AS chain_link"
                + " FROM audit_checkpoint c LEFT JOIN audit_event a ON a.position = c.position ORDER BY c.position");
        for (Map<String, Object> checkpoint : checkpoints) {
            long position = ((Number) checkpoint.get("position")).longValue();
            byte[] link = (byte[]) checkpoint.get("link");
            if (!Arrays.equals(link, (byte[]) checkpoint.get("chain_link"))) {
                return Result.failed(checked, "checkpoint at position " + position + " does not match the chain's link there");
            }
            try {
                SignedJWT jws = SignedJWT.parse((String) checkpoint.get("jws"));
                RSAPublicKey key = keys.get(jws.getHeader().getKeyID());
                if (key == null || !jws.verify(new RSASSAVerifier(key))
                        || !HEX.formatHex(link).equals(jws.getJWTClaimsSet().getStringClaim("link"))
                        || jws.getJWTClaimsSet().getLongClaim("position") != position
                        || !signsTreeHead(jws, position, (byte[]) checkpoint.get("root_hash"))) {
                    return Result.failed(checked, "checkpoint at position " + position + " is not signed by the platform's key");
                }
            } catch (ParseException | JOSEException unreadable) {
                return Result.failed(checked, "checkpoint at position " + position + " is not a readable JWS: " + unreadable.getMessage());
            }
        }
        return Result.ok(checked);
    }

    /** A checkpoint signed with a tree head signs the stored one: its size and root; one signed before the tree has neither. */
    private static boolean signsTreeHead(SignedJWT jws, long position, byte[] root) throws ParseException {
        String signedRoot = jws.getJWTClaimsSet().getStringClaim("root_hash");
        if (root == null || signedRoot == null) {
            return root == null && signedRoot == null;
        }
        Long size = jws.getJWTClaimsSet().getLongClaim("tree_size");
        return size != null && size == position && HEX.formatHex(root).equals(signedRoot);
    }

    /**
     * An export (NDJSON of {@code GET /api/v1/audit/export}): each line's link from its stored columns and previous link,
     * and consecutive positions linked to each other.
     */
    public static Result verifyExport(BufferedReader lines, JsonMapper json) throws IOException {
        long checked = 0;
        long lastPosition = -1;
        byte[] lastLink = null;
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode event = json.readTree(line);
            JsonNode stored = event.get("stored");
            JsonNode chain = event.get("chain");
            long position = chain.get("position").asLong();
            byte[] previous = HEX.parseHex(chain.get("previous_link").asString());
            byte[] link = HEX.parseHex(chain.get("link").asString());
            String where = "event at global index " + stored.get("global_index").asLong() + " (position " + position + ")";
            if (position == lastPosition + 1 && lastLink != null && !Arrays.equals(previous, lastLink)) {
                return Result.failed(checked, where + " does not follow the line before it");
            }
            if (!Arrays.equals(storedEvent(stored).link(previous), link)) {
                return Result.failed(checked, where + " does not match its link: its exported bytes changed");
            }
            lastPosition = position;
            lastLink = link;
            checked++;
        }
        return Result.ok(checked);
    }

    /** The stored event an export line's {@code stored} object describes. */
    static StoredEvent storedEvent(JsonNode stored) {
        Base64.Decoder base64 = Base64.getDecoder();
        return new StoredEvent(stored.get("global_index").asLong(), text(stored, "event_identifier"), text(stored, "aggregate_identifier"),
                stored.get("sequence_number").asLong(), text(stored, "type"), text(stored, "time_stamp"), text(stored, "payload_type"),
                text(stored, "payload_revision"), base64.decode(text(stored, "payload")),
                text(stored, "meta_data") == null ? null : base64.decode(text(stored, "meta_data")));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }

    private static RSAPublicKey publicKey(byte[] encoded) {
        try {
            return (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(encoded));
        } catch (GeneralSecurityException unreadable) {
            throw new IllegalStateException("A stored public key is not an X.509 RSA key", unreadable);
        }
    }
}

package org.agentplatform.infra.audit;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.agentplatform.infra.adapter.identity.PlatformSigner;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Signs the head of the audit chain: a compact JWS (RS256, the platform's signing key, so {@code /.well-known/jwks.json}
 * verifies it) whose claims are the head's {@code position}, {@code global_index} and {@code link} (hex), and the
 * signed tree head of the same events, {@code tree_size} (the position) and {@code root_hash} (hex, RFC 9162's root),
 * issued at {@code iat}. A store edited after a checkpoint no longer reaches the signed link nor the signed root.
 */
public final class AuditCheckpoints {

    public static final JOSEObjectType TYPE = new JOSEObjectType("audit-checkpoint+jwt");

    private final JdbcTemplate jdbc;
    private final AuditTree tree;
    private final PlatformSigner signer;
    private final String issuer;
    private final Clock clock;

    public AuditCheckpoints(JdbcTemplate jdbc, PlatformSigner signer, String issuer, Clock clock) {
        this.jdbc = jdbc;
        this.tree = new AuditTree(jdbc);
        this.signer = signer;
        this.issuer = issuer;
        this.clock = clock;
    }

    /** Signs the chain's head if it moved since the last checkpoint; true when it signed one. */
    public boolean checkpoint() {
        List<Object[]> heads = jdbc.query("SELECT a.position, a.global_index, a.link FROM audit_event a"
                        + " WHERE a.position > COALESCE((SELECT max(position) FROM audit_checkpoint), 0) ORDER BY a.position DESC LIMIT 1",
                (row, n) -> new Object[] {row.getLong(1), row.getLong(2), row.getBytes(3)});
        if (heads.isEmpty()) {
            return false;
        }
        long position = (long) heads.getFirst()[0];
        long globalIndex = (long) heads.getFirst()[1];
        byte[] link = (byte[]) heads.getFirst()[2];
        byte[] root = rootOrNull(position);
        Instant now = clock.instant();
        String jws = sign(position, globalIndex, link, root, now);
        return jdbc.update("INSERT INTO audit_checkpoint (position, global_index, link, root_hash, signed_at, jws) VALUES (?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (position) DO NOTHING", position, globalIndex, link, root, Timestamp.from(now), jws) == 1;
    }

    /**
     * The tree's root at {@code position}; null while the tree lacks its nodes (a store chained before the tree, whose
     * leaves the chain's next batch adds): the checkpoint then signs the chain alone, and a later one the tree head.
     */
    private byte[] rootOrNull(long position) {
        try {
            return tree.root(position);
        } catch (IllegalStateException notCaughtUp) {
            return null;
        }
    }

    private String sign(long position, long globalIndex, byte[] link, byte[] root, Instant at) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .issueTime(Date.from(at))
                .claim("position", position)
                .claim("global_index", globalIndex)
                .claim("link", HexFormat.of().formatHex(link));
        if (root != null) {
            claims.claim("tree_size", position).claim("root_hash", HexFormat.of().formatHex(root));
        }
        return signer.sign(TYPE, claims.build());
    }
}

package org.agentplatform.infra.support;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;

/** Builds JWTs for tests: well-formed ones, and the classic forgeries (alg none, HS256 keyed with the public key). */
public final class Jwts {

    private Jwts() {
    }

    public static RSAKey newRsaKey() {
        try {
            return new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
        } catch (JOSEException failure) {
            throw new IllegalStateException(failure);
        }
    }

    public static JWTClaimsSet.Builder claims(String issuer, String audience, String subject, Instant now) {
        return new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience(audience)
                .subject(subject)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(600)))
                .jwtID(UUID.randomUUID().toString());
    }

    public static String rs256(RSAKey key, JWTClaimsSet claims) {
        return rs256(key, key.getKeyID(), claims);
    }

    /** Signed with {@code key} but claiming to be signed by the key {@code kid}. */
    public static String rs256(RSAKey key, String kid, JWTClaimsSet claims) {
        return rs256(key, kid, JOSEObjectType.JWT, claims);
    }

    /** With header {@code typ} {@code type} (null: no typ at all). */
    public static String rs256(RSAKey key, String kid, JOSEObjectType type, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid).type(type).build(), claims);
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException failure) {
            throw new IllegalStateException(failure);
        }
        return jwt.serialize();
    }

    /** An unsecured JWT: {@code {"alg":"none"}} and no signature. */
    public static String unsigned(JWTClaimsSet claims) {
        String header = Base64URL.encode("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)).toString();
        String payload = Base64URL.encode(claims.toString().getBytes(StandardCharsets.UTF_8)).toString();
        return header + "." + payload + ".";
    }

    /** The key-confusion forgery: HS256 with the issuer's public key bytes as the HMAC secret. */
    public static String hs256WithPublicKey(RSAKey publicKey, JWTClaimsSet claims) {
        try {
            byte[] secret = publicKey.toRSAPublicKey().getEncoded();
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(publicKey.getKeyID())
                    .type(JOSEObjectType.JWT).build(), claims);
            jwt.sign(new MACSigner(secret));
            return jwt.serialize();
        } catch (JOSEException failure) {
            throw new IllegalStateException(failure);
        }
    }
}

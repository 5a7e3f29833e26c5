package org.agentplatform.infra.adapter.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * The platform's RS256 key as the signer of every compact JWS the platform issues (access tokens, audit checkpoints,
 * terminal tickets): its {@code kid} and the token's {@code typ} in the header, so {@code /.well-known/jwks.json} verifies
 * them all and each kind is told apart by its type.
 */
public final class PlatformSigner {

    private final RSAKey key;
    private final RSASSASigner signer;
    private final RSASSAVerifier verifier;

    public PlatformSigner(RSAKey key) {
        this.key = key;
        try {
            this.signer = new RSASSASigner(key);
            this.verifier = new RSASSAVerifier(key.toRSAPublicKey());
        } catch (JOSEException failure) {
            throw new IllegalStateException("The platform key cannot sign", failure);
        }
    }

    public String sign(JOSEObjectType type, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).type(type).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException failure) {
            throw new IllegalStateException("The platform key could not sign a " + type, failure);
        }
        return jwt.serialize();
    }

    /** Whether the platform key signed it (and with RS256). */
    public boolean signed(SignedJWT jwt) throws JOSEException {
        return JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm()) && jwt.verify(verifier);
    }

    /** The public half, as a JWK. */
    public RSAKey publicKey() {
        return key.toPublicJWK();
    }
}

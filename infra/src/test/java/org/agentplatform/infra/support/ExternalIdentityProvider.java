package org.agentplatform.infra.support;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real external identity provider for tests: an HTTP server on 127.0.0.1 serving a JWKS, whose key
 * signs tokens. It can be switched to fail (HTTP 503) to play an unreachable JWKS.
 */
public final class ExternalIdentityProvider {

    public static final String ISSUER = "https://idp.example.test";
    public static final String AUDIENCE = "agent-platform-tests";

    private static ExternalIdentityProvider instance;

    private final HttpServer server;
    private final RSAKey key = Jwts.newRsaKey();
    private final AtomicInteger fetches = new AtomicInteger();
    private volatile boolean failing;

    private ExternalIdentityProvider() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/jwks.json", exchange -> {
            fetches.incrementAndGet();
            byte[] body = failing
                    ? "unavailable".getBytes(StandardCharsets.UTF_8)
                    : new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(failing ? 503 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    public static synchronized ExternalIdentityProvider get() {
        if (instance == null) {
            try {
                instance = new ExternalIdentityProvider();
            } catch (IOException failure) {
                throw new UncheckedIOException(failure);
            }
        }
        return instance;
    }

    public String jwksUri() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json";
    }

    public RSAKey key() {
        return key;
    }

    public JWTClaimsSet.Builder claims(String subject) {
        return Jwts.claims(ISSUER, AUDIENCE, subject, Instant.now());
    }

    public String token(JWTClaimsSet claims) {
        return Jwts.rs256(key, claims);
    }

    public void failing(boolean failing) {
        this.failing = failing;
    }

    public int fetches() {
        return fetches.get();
    }
}

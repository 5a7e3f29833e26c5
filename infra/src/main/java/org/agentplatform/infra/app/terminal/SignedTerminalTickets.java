package org.agentplatform.infra.app.terminal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.UUID;
import org.agentplatform.api.terminal.TerminalTickets;
import org.agentplatform.infra.adapter.identity.PlatformSigner;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalId;

/**
 * Terminal tickets as compact JWS: RS256 with the platform's signing key, {@code typ} {@code terminal-ticket+jwt},
 * {@code aud} {@code terminal}, {@code sub} the terminal, and the owner, instance and actor as claims. The API's bearer
 * authentication wants another type and audience, so a ticket never passes for an access token.
 */
final class SignedTerminalTickets implements TerminalTickets {

    static final String AUDIENCE = "terminal";
    static final JOSEObjectType TYPE = new JOSEObjectType("terminal-ticket+jwt");
    private static final String NOT_A_TICKET = "not a terminal ticket of this service";

    private final PlatformSigner signer;
    private final String issuer;
    private final Duration ttl;
    private final Clock clock;

    SignedTerminalTickets(PlatformSigner signer, String issuer, Duration ttl, Clock clock) {
        this.signer = signer;
        this.issuer = issuer;
        this.ttl = ttl;
        this.clock = clock;
    }

    @Override
    public Ticket issue(OwnerId owner, InstanceId instance, TerminalId terminal, String actor) {
        Instant issuedAt = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant expiresAt = issuedAt.plus(ttl);
        String jti = UUID.randomUUID().toString();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience(AUDIENCE)
                .subject(terminal.toString())
                .claim("owner_id", owner.toString())
                .claim("instance_id", instance.toString())
                .claim("terminal_id", terminal.toString())
                .claim("act", actor)
                .issueTime(Date.from(issuedAt))
                .expirationTime(Date.from(expiresAt))
                .jwtID(jti)
                .build();
        return new Ticket(signer.sign(TYPE, claims), jti, expiresAt);
    }

    @Override
    public Grant verify(String ticket) {
        try {
            SignedJWT jwt = SignedJWT.parse(ticket);
            if (!TYPE.equals(jwt.getHeader().getType()) || !signer.signed(jwt)) {
                throw new Refused(NOT_A_TICKET, false);
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            if (!issuer.equals(claims.getIssuer()) || claims.getAudience() == null || !claims.getAudience().contains(AUDIENCE)
                    || claims.getJWTID() == null || claims.getExpirationTime() == null) {
                throw new Refused(NOT_A_TICKET, false);
            }
            Instant expires = claims.getExpirationTime().toInstant();
            if (!clock.instant().isBefore(expires)) {
                throw new Refused("the ticket expired at " + expires + "; ask for a new one with resumeTerminalId", true);
            }
            return new Grant(new OwnerId(uuid(claims, "owner_id")), new InstanceId(uuid(claims, "instance_id")),
                    new TerminalId(uuid(claims, "terminal_id")), present(claims.getStringClaim("act")), claims.getJWTID());
        } catch (ParseException | JOSEException | IllegalArgumentException malformed) {
            throw new Refused(NOT_A_TICKET, false);
        }
    }

    private static UUID uuid(JWTClaimsSet claims, String name) throws ParseException {
        return UUID.fromString(present(claims.getStringClaim(name)));
    }

    private static String present(String claim) {
        if (claim == null) {
            throw new Refused(NOT_A_TICKET, false);
        }
        return claim;
    }
}

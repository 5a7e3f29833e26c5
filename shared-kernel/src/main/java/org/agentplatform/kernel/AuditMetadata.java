package org.agentplatform.kernel;

import java.util.Map;

/**
 * Who did it: the metadata of every command and of the events it causes, so the event history answers "who,
 * when, through which request, in answer to what". The API sets the owner, the actor (the credential:
 * {@code key:<id>}, {@code user:<id>}, {@code jwt:<issuer>#<subject>}) and the request id; a process (an event
 * handler, a saga, a deadline, the runtime) acts as {@code system:<process>}, keeps the request id and the owner of
 * what it answers, and names the event it answers in {@link #CAUSED_BY} (its global index).
 */
public final class AuditMetadata {

    public static final String OWNER_ID = "ownerId";
    public static final String ACTOR = "actor";
    public static final String REQUEST_ID = "requestId";
    public static final String CAUSED_BY = "causedBy";
    /** The actor's key before {@link #ACTOR} existed; events stored then still carry it. */
    public static final String CREDENTIAL_ID = "credentialId";

    private static final String SYSTEM = "system:";

    private AuditMetadata() {
    }

    /** The actor of a process. */
    public static String system(String process) {
        return SYSTEM + process;
    }

    /** The metadata of a command a process sends outside any event it handles (a worker, a timer, the runtime). */
    public static Map<String, String> byProcess(String process) {
        return Map.of(ACTOR, system(process));
    }
}

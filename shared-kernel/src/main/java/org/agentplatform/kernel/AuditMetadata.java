package org.agentplatform.kernel;

/**
 * Who did it: the metadata keys set on every command by the API and copied onto the events it causes,
 * so the event history answers "who, when, through which request".
 */
public final class AuditMetadata {

    public static final String OWNER_ID = "ownerId";
    public static final String CREDENTIAL_ID = "credentialId";
    public static final String REQUEST_ID = "requestId";

    private AuditMetadata() {
    }
}

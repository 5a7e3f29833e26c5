package org.agentplatform.infra.database;

/** The PostgreSQL the service runs on: an external server, or the embedded one it started and must stop. */
public interface DatabaseServer extends AutoCloseable {

    DatabaseEndpoint endpoint();

    @Override
    void close();
}

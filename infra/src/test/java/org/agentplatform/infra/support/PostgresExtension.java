package org.agentplatform.infra.support;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Supplies PostgreSQL to integration tests: makes sure the JVM's {@link TestPostgres} is up before a class runs. */
public final class PostgresExtension implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        TestPostgres postgres = TestPostgres.get();
        context.publishReportEntry("postgres", postgres.kind() + " " + postgres.admin());
    }
}

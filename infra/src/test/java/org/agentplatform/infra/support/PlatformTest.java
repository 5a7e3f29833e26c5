package org.agentplatform.infra.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.agentplatform.infra.AgentPlatformApplication;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

/**
 * The whole service on a random port, on its own database of the test PostgreSQL (see {@link TestPostgres}).
 * Classes with the same further configuration share one cached context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(PostgresExtension.class)
@SpringBootTest(classes = AgentPlatformApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = FreshDatabase.class)
@Import(PlatformTestConfiguration.class)
public @interface PlatformTest {
}

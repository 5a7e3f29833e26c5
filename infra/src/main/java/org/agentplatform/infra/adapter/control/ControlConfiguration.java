package org.agentplatform.infra.adapter.control;

import java.time.Clock;
import org.agentplatform.api.control.ControlBudget;
import org.agentplatform.infra.platform.PlatformProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

/** Computer and mobile control's budget: per owner, in PostgreSQL (the devices are the provider's). */
@Configuration(proxyBeanMethods = false)
public class ControlConfiguration {

    @Bean
    ControlBudget controlBudget(DatabaseClient database, Clock clock, PlatformProperties properties) {
        return new PostgresControlBudget(database, clock, properties.control().budgetTimeout());
    }
}

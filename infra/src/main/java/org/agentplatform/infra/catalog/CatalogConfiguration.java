package org.agentplatform.infra.catalog;

import java.util.List;
import org.agentplatform.kernel.catalog.ProviderCatalog;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The deploy catalog: the providers this node can deploy to (the built-in {@code local} one by default). */
@Configuration(proxyBeanMethods = false)
public class CatalogConfiguration {

    @Bean
    ProviderCatalog providerCatalog() {
        return new ProviderCatalog(List.of(LocalProvider.descriptor()));
    }
}

package org.agentplatform.infra.app.catalog;

import java.util.List;
import org.agentplatform.kernel.catalog.Provider;
import org.agentplatform.kernel.catalog.ProviderCatalog;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The deploy catalog: every provider the application has (each provider's configuration gives its entry). */
@Configuration(proxyBeanMethods = false)
public class CatalogConfiguration {

    @Bean
    ProviderCatalog providerCatalog(List<Provider> providers) {
        return new ProviderCatalog(List.copyOf(providers));
    }
}

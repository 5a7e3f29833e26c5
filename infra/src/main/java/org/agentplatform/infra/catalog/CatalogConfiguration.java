package org.agentplatform.infra.catalog;

import java.util.List;
import org.agentplatform.infra.PlatformProperties;
import org.agentplatform.infra.model.ModelBackends;
import org.agentplatform.infra.model.ModelCatalog;
import org.agentplatform.kernel.catalog.ProviderCatalog;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.WebClient;

/** The deploy catalog (the built-in {@code local} provider) and the models its agents run. */
@Configuration(proxyBeanMethods = false)
public class CatalogConfiguration {

    @Bean
    ModelCatalog modelCatalog(PlatformProperties properties) {
        PlatformProperties.Models.OpenAi openAi = properties.models().openai();
        return new ModelCatalog(openAi.isConfigured() ? openAi.models() : List.of());
    }

    @Bean
    ModelBackends modelBackends(ModelCatalog catalog, PlatformProperties properties) {
        PlatformProperties.Models.OpenAi openAi = properties.models().openai();
        WebClient client = null;
        if (openAi.isConfigured()) {
            WebClient.Builder builder = WebClient.builder().baseUrl(openAi.baseUrl().replaceAll("/+$", ""));
            if (openAi.apiKey() != null && !openAi.apiKey().isBlank()) {
                builder.defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + openAi.apiKey());
            }
            client = builder.build();
        }
        return new ModelBackends(catalog, client, openAi.timeout());
    }

    @Bean
    ProviderCatalog providerCatalog(ModelCatalog models) {
        return new ProviderCatalog(List.of(LocalProvider.descriptor(models.offers())));
    }
}

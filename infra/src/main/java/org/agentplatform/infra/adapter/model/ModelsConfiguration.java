package org.agentplatform.infra.adapter.model;

import java.util.List;
import org.agentplatform.infra.platform.PlatformProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.WebClient;

/** The models agents answer through: {@code echo}, and an OpenAI-compatible endpoint when one is configured. */
@Configuration(proxyBeanMethods = false)
public class ModelsConfiguration {

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
}

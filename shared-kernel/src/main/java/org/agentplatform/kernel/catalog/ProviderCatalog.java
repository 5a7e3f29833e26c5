package org.agentplatform.kernel.catalog;

import java.util.List;
import java.util.Optional;

/** The providers this service can deploy to, in the order the catalog lists them. */
public record ProviderCatalog(List<Provider> providers) {

    public ProviderCatalog {
        providers = List.copyOf(providers);
    }

    public Optional<Provider> provider(String providerId) {
        return providers.stream().filter(provider -> provider.id().equals(providerId)).findFirst();
    }
}

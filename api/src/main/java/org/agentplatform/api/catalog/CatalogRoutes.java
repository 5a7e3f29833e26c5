package org.agentplatform.api.catalog;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.kernel.catalog.ModelOffer;
import org.agentplatform.kernel.catalog.Provider;
import org.agentplatform.kernel.catalog.ProviderCapabilities;
import org.agentplatform.kernel.catalog.ProviderCatalog;
import org.agentplatform.kernel.catalog.ProviderMeta;
import org.agentplatform.kernel.catalog.Region;
import org.agentplatform.kernel.instance.InstanceKind;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/providers}: the deploy catalog, with camelCase capabilities as the contract lists them. */
@RestController
final class CatalogRoutes {

    private final List<ProviderItem> items;

    CatalogRoutes(ProviderCatalog catalog) {
        this.items = catalog.providers().stream().map(ProviderItem::of).toList();
    }

    @GetMapping("/api/v1/providers")
    ApiResponse<List<ProviderItem>> providers() {
        return ApiResponse.of(items);
    }

    record ProviderItem(MetaItem meta, CapabilitiesItem capabilities, List<RegionItem> regions, List<ModelItem> models) {

        static ProviderItem of(Provider provider) {
            return new ProviderItem(MetaItem.of(provider.meta()), CapabilitiesItem.of(provider.capabilities()),
                    provider.regions().stream().map(RegionItem::of).toList(),
                    provider.models().stream().map(ModelItem::of).toList());
        }
    }

    record MetaItem(String id, String name, String description, String version) {

        static MetaItem of(ProviderMeta meta) {
            return new MetaItem(meta.id(), meta.name(), meta.description(), meta.version());
        }
    }

    /** Wire names are camelCase since contract 1.1.0; {@code device} is unchanged. */
    record CapabilitiesItem(
            boolean longRunning,
            boolean browserUse,
            boolean codeExec,
            boolean fileSystem,
            boolean customImage,
            boolean device,
            int maxDurationSec,
            String costModel) {

        static CapabilitiesItem of(ProviderCapabilities capabilities) {
            return new CapabilitiesItem(capabilities.longRunning(), capabilities.browserUse(), capabilities.codeExec(),
                    capabilities.fileSystem(), capabilities.customImage(), capabilities.device(),
                    capabilities.maxDurationSec(), capabilities.costModel());
        }
    }

    record RegionItem(String id, String name, List<String> kinds) {

        static RegionItem of(Region region) {
            return new RegionItem(region.id(), region.name(), region.kinds().stream().map(InstanceKind::wireName).toList());
        }
    }

    record ModelItem(String id, String label, String backend, @JsonProperty("default") boolean isDefault) {

        static ModelItem of(ModelOffer model) {
            return new ModelItem(model.id(), model.label(), model.backend(), model.isDefault());
        }
    }
}

package org.agentplatform.kernel.catalog;

import java.util.List;
import java.util.Optional;

/** One item of the deploy catalog. */
public record Provider(ProviderMeta meta, ProviderCapabilities capabilities, List<Region> regions, List<ModelOffer> models) {

    public Provider {
        regions = List.copyOf(regions);
        models = List.copyOf(models);
    }

    public String id() {
        return meta.id();
    }

    public Optional<Region> region(String regionId) {
        return regions.stream().filter(region -> region.id().equals(regionId)).findFirst();
    }
}

package org.agentplatform.infra.local;

import java.util.List;
import org.agentplatform.kernel.catalog.ModelOffer;
import org.agentplatform.kernel.catalog.Provider;
import org.agentplatform.kernel.catalog.ProviderCapabilities;
import org.agentplatform.kernel.catalog.ProviderMeta;
import org.agentplatform.kernel.catalog.Region;
import org.agentplatform.kernel.instance.InstanceKind;

/** The built-in {@code local} provider: sandbox instances run inside this service, on this host. */
public final class LocalProvider {

    public static final String ID = "local";
    public static final String REGION = "local";

    private LocalProvider() {
    }

    public static Provider descriptor(List<ModelOffer> models) {
        return new Provider(
                new ProviderMeta(ID, "Local sandbox",
                        "Sandbox instances run inside this service; their agents answer through the echo model or a configured"
                                + " OpenAI-compatible endpoint.",
                        "1.0.0"),
                new ProviderCapabilities(true, false, true, true, false, true, 7 * 24 * 60 * 60, "free"),
                List.of(new Region(REGION, "This host", List.of(InstanceKind.values()))),
                models);
    }
}

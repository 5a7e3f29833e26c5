package org.agentplatform.infra.adapter.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.agentplatform.kernel.catalog.ModelOffer;

/**
 * The models agents can run: the built-in deterministic {@code echo} (always available, the default and
 * fallback) and the models of the configured OpenAI-compatible endpoint, if any.
 */
public final class ModelCatalog {

    public static final String ECHO = "echo";
    public static final String ECHO_BACKEND = "echo";
    public static final String OPENAI_BACKEND = "openai";

    private final List<ModelOffer> offers;

    public ModelCatalog(List<String> openAiModels) {
        List<ModelOffer> all = new ArrayList<>();
        all.add(new ModelOffer(ECHO, "Echo (deterministic)", ECHO_BACKEND, true));
        openAiModels.forEach(model -> all.add(new ModelOffer(model, model, OPENAI_BACKEND, false)));
        this.offers = List.copyOf(all);
    }

    public List<ModelOffer> offers() {
        return offers;
    }

    public Optional<ModelOffer> find(String modelId) {
        return offers.stream().filter(offer -> offer.id().equals(modelId)).findFirst();
    }

    public String defaultModel() {
        return ECHO;
    }

    public String fallbackModel() {
        return ECHO;
    }
}

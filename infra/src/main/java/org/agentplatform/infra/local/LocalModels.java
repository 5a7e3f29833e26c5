package org.agentplatform.infra.local;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.command.operation.RuntimeCall;
import org.agentplatform.infra.adapter.model.ModelCatalog;

/** {@code models/list}: the models the runtime's agents can run, the agent's own marked as default. */
final class LocalModels {

    private final ModelCatalog catalog;
    private final LocalAgents agents;

    LocalModels(ModelCatalog catalog, LocalAgents agents) {
        this.catalog = catalog;
        this.agents = agents;
    }

    Object list(RuntimeCall call, Params params) {
        String defaultModel = catalog.defaultModel();
        if (params.optionalText("agentId") != null) {
            UUID agent = params.id("agentId");
            agents.require(call.instanceId().value(), agent);
            defaultModel = agents.modelOf(call.instanceId().value(), agent);
        }
        String chosen = defaultModel;
        List<Map<String, Object>> models = catalog.offers().stream().map(offer -> {
            Map<String, Object> model = new LinkedHashMap<>();
            model.put("id", offer.id());
            model.put("available", true);
            model.put("label", offer.label());
            model.put("backend", offer.backend());
            model.put("default", offer.id().equals(chosen));
            return model;
        }).toList();
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("models", models);
        list.put("default", chosen);
        list.put("fallback", catalog.fallbackModel());
        return list;
    }
}

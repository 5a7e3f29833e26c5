package org.agentplatform.kernel.catalog;

import java.util.List;
import org.agentplatform.kernel.instance.InstanceKind;

/** A place a provider deploys to, with the instance kinds it offers there. */
public record Region(String id, String name, List<InstanceKind> kinds) {

    public Region {
        kinds = List.copyOf(kinds);
    }

    public boolean offers(InstanceKind kind) {
        return kinds.contains(kind);
    }
}

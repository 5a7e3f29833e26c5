package org.agentplatform.kernel.catalog;

/** Who a provider is: the catalog item's {@code meta}. */
public record ProviderMeta(String id, String name, String description, String version) {
}

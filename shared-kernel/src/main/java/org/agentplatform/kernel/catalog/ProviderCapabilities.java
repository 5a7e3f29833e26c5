package org.agentplatform.kernel.catalog;

/** What a provider's instances can do: the catalog item's {@code capabilities}. */
public record ProviderCapabilities(
        boolean longRunning,
        boolean browserUse,
        boolean codeExec,
        boolean fileSystem,
        boolean customImage,
        boolean device,
        int maxDurationSec,
        String costModel) {
}

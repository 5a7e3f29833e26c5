package org.agentplatform.kernel.catalog;

/** A model a provider's agents can run, and the backend that answers for it. */
public record ModelOffer(String id, String label, String backend, boolean isDefault) {
}

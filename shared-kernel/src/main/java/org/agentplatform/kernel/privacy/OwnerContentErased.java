package org.agentplatform.kernel.privacy;

import org.agentplatform.kernel.identity.OwnerId;

/**
 * An owner's personal content was erased (crypto-shredding, {@link PersonalContent}): its data keys were destroyed, so
 * everything sealed with them reads as {@link PersonalContent#ERASED} from now on. Who asked (the owner's credential, or an
 * operator through the CLI) is the event's metadata; {@code keysDestroyed} counts the keys whose material is gone (0: the
 * owner had sealed nothing since its last erasure), {@code filesDeleted} the uploaded files deleted with their bytes.
 */
public record OwnerContentErased(OwnerId ownerId, int keysDestroyed, int filesDeleted) {
}

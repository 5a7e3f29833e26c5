package org.agentplatform.infra.local.device;

import org.agentplatform.api.control.DeviceAction;
import org.agentplatform.api.control.Devices;

/** One instance's screen on the local provider: a real X display or a virtual device. Calls block; callers run them off the event loop. */
interface Device extends AutoCloseable {

    Devices.Screen screen();

    Devices.Screenshot screenshot();

    void perform(DeviceAction action);

    /** Whether the device can still answer (a display whose server died cannot, and is made anew on the next call). */
    default boolean isAlive() {
        return true;
    }

    /** Stops the device (its display process, if any). */
    @Override
    void close();
}

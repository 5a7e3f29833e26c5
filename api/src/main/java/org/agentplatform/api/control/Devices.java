package org.agentplatform.api.control;

import java.util.List;
import org.agentplatform.query.instance.InstanceRecord;
import reactor.core.publisher.Mono;

/**
 * Port: the screens of running instances, as a provider drives them (the local provider: a real X display or a
 * built-in virtual device; a cloud provider: its own). Coordinates are absolute device pixels, origin top-left.
 * A device that fails answers a {@link DeviceFailure}.
 */
public interface Devices {

    /** The live geometry of the instance's screen. */
    Mono<Screen> screen(InstanceRecord instance);

    Mono<Screenshot> screenshot(InstanceRecord instance);

    /** Performs the action; completes once the device has done it. */
    Mono<Void> perform(InstanceRecord instance, DeviceAction action);

    /**
     * @param cursor      the pointer (desktops; null when unknown)
     * @param orientation {@code portrait} or {@code landscape} (android; null for desktops)
     * @param buttons     the hardware buttons (android)
     * @param display     the X display programs can be started on ({@code :93}), when the screen is a real one on this host
     */
    record Screen(int width, int height, Point cursor, String orientation, List<String> buttons, String display) {

        public boolean contains(int x, int y) {
            return x >= 0 && y >= 0 && x < width && y < height;
        }
    }

    record Point(int x, int y) {
    }

    record Screenshot(int width, int height, byte[] png) {
    }

    /** The device refused or failed an action: {@code code} is the contract code to answer with. */
    final class DeviceFailure extends RuntimeException {

        private final String code;

        public DeviceFailure(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }
}

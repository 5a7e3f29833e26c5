package org.agentplatform.infra.local.device;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import org.agentplatform.api.control.DeviceAction;
import org.agentplatform.api.control.Devices;
import org.agentplatform.api.control.Devices.DeviceFailure;
import org.agentplatform.infra.local.FaultRule;
import org.agentplatform.kernel.control.ControlSurface;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.query.instance.InstanceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The local provider's screens: for a running linux instance a real X display when {@code Xvfb} and {@code xdotool}
 * are installed ({@link XvfbDisplay}), else, and for windows, mac and android, a virtual device ({@link VirtualScreen}).
 * A device is made on the instance's first control request and released when it stops, restarts or is destroyed
 * (a virtual device's state does not outlive the service). The instance's injected faults apply to screenshots and
 * actions ({@code computer/click}, {@code mobile/screenshot}, ... or {@code *}).
 */
public final class LocalDevices implements Devices {

    private static final Logger log = LoggerFactory.getLogger(LocalDevices.class);
    private static final int FIRST_DISPLAY = 90;

    private final Map<InstanceId, Device> devices = new ConcurrentHashMap<>();
    private final BiFunction<InstanceId, String, Optional<FaultRule>> faults;
    private final Predicate<InstanceRecord> running;
    private final Function<InstanceKind, Device> maker;

    /**
     * @param faults  takes the instance's first fault rule matching a method name, if any
     * @param running whether the instance's runtime runs, for a request that read the instance running (a device is made
     *                only for one that does)
     * @param realX   whether linux instances get a real X display
     */
    public LocalDevices(BiFunction<InstanceId, String, Optional<FaultRule>> faults, Predicate<InstanceRecord> running, boolean realX) {
        this.faults = faults;
        this.running = running;
        boolean xvfb = realX && XvfbDisplay.available();
        log.atInfo().addKeyValue("real_x_display", xvfb).log("local devices ready");
        this.maker = kind -> xvfb && kind == InstanceKind.LINUX ? XvfbDisplay.start(FIRST_DISPLAY) : new VirtualScreen(kind);
    }

    @Override
    public Mono<Screen> screen(InstanceRecord instance) {
        return blocking(() -> onDevice(instance, Device::screen));
    }

    @Override
    public Mono<Screenshot> screenshot(InstanceRecord instance) {
        return faulted(instance, "screenshot").then(blocking(() -> onDevice(instance, Device::screenshot)));
    }

    @Override
    public Mono<Void> perform(InstanceRecord instance, DeviceAction action) {
        return faulted(instance, action.action().wireName()).then(blocking(() -> onDevice(instance, device -> {
            device.perform(action);
            return true;
        }))).then();
    }

    /**
     * The call on the instance's device; a device that fails answers what happened, never an internal error: 409 when the
     * instance stopped or restarted during the call (its device was released under it), 503 when the device itself failed.
     * A device that died (its display server gone) is released, so the next call makes a new one.
     */
    private <T> T onDevice(InstanceRecord instance, Function<Device, T> call) {
        Device device = device(instance);
        try {
            return call.apply(device);
        } catch (DeviceFailure refusal) {
            throw refusal;
        } catch (RuntimeException failure) {
            if (devices.get(instance.id()) != device) {
                throw new DeviceFailure("conflict", "Instance " + instance.id() + " stopped or restarted during the request; read it and try again");
            }
            if (!device.isAlive() && devices.remove(instance.id(), device)) {
                device.close();
            }
            log.atWarn().addKeyValue("instance_id", instance.id().toString()).setCause(failure).log("the instance's screen failed");
            throw new DeviceFailure("agent_service_unavailable", "The instance's screen did not answer; try again");
        }
    }

    /** The instance stopped, restarted or was destroyed: its device goes (a display process is stopped). */
    public void release(InstanceId instance) {
        Device device = devices.remove(instance);
        if (device != null) {
            device.close();
        }
    }

    /** Stops every device (the service is stopping). */
    public void close() {
        devices.keySet().forEach(this::release);
    }

    /**
     * The instance's device, made on first use. A request that read the instance as running just before it stopped
     * must not make a device nobody releases: a new one is made only while the runtime runs.
     */
    private Device device(InstanceRecord instance) {
        Device device = devices.get(instance.id());
        if (device != null) {
            return device;
        }
        if (!running.test(instance)) {
            throw new DeviceFailure("conflict", "Instance " + instance.id() + " is not running; start it to control its screen");
        }
        return devices.computeIfAbsent(instance.id(), any -> maker.apply(instance.kind()));
    }

    /** The injected fault of this call, if any: a latency first, a refusal, or a device that never answers. */
    private Mono<Void> faulted(InstanceRecord instance, String action) {
        String method = (instance.kind().isDesktop() ? ControlSurface.COMPUTER : ControlSurface.MOBILE).wireName() + "/" + action;
        return blocking(() -> faults.apply(instance.id(), method)).flatMap(found -> found.map(rule -> {
            if (rule.neverAnswer()) {
                return Mono.<Void>never();
            }
            Mono<Void> delay = rule.latencyMs() == null ? Mono.empty() : Mono.delay(Duration.ofMillis(rule.latencyMs())).then();
            return rule.failWith() == null ? delay : delay.then(Mono.<Void>error(new DeviceFailure(rule.failWith().code(),
                    rule.failWith().message() == null ? "Injected failure" : rule.failWith().message())));
        }).orElse(Mono.empty()));
    }

    private static <T> Mono<T> blocking(java.util.concurrent.Callable<T> call) {
        return Mono.fromCallable(call).subscribeOn(Schedulers.boundedElastic());
    }
}

package org.agentplatform.webhook;

import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.resolver.InetSocketAddressResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Name resolution for callbacks that checks every address a host resolves to with the {@link SsrfGuard}
 * before any connection: the connection goes to an address that was checked (no second lookup to rebind).
 * Lookups run on {@code lookups}, never on the event loop.
 */
final class GuardedResolver extends AddressResolverGroup<InetSocketAddress> {

    private final SsrfGuard guard;
    private final Executor lookups;

    GuardedResolver(SsrfGuard guard, Executor lookups) {
        this.guard = guard;
        this.lookups = lookups;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new InetSocketAddressResolver(executor, new InetNameResolver(executor) {
            @Override
            protected void doResolve(String host, Promise<InetAddress> promise) {
                lookups.execute(() -> {
                    try {
                        promise.setSuccess(checked(host).getFirst());
                    } catch (Exception refused) {
                        promise.setFailure(refused);
                    }
                });
            }

            @Override
            protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                lookups.execute(() -> {
                    try {
                        promise.setSuccess(checked(host));
                    } catch (Exception refused) {
                        promise.setFailure(refused);
                    }
                });
            }
        });
    }

    /** Every address of the host, each allowed; a host with any internal address is refused as a whole. */
    private List<InetAddress> checked(String host) throws Exception {
        List<InetAddress> addresses = List.of(InetAddress.getAllByName(host));
        addresses.forEach(address -> guard.check(host, address));
        return addresses;
    }
}

package org.agentplatform.infra.adapter.identity;

import java.nio.file.Path;
import java.util.function.Supplier;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Makes sure the first owner and key exist before the service serves, and prints a key this start created once the
 * server listens, with the port it really took ({@code SERVER_PORT=0} picks any).
 */
final class FirstStartBanner implements SmartInitializingSingleton, ApplicationListener<WebServerInitializedEvent> {

    private final Supplier<FirstStart.Started> ensure;
    private final Path dataDir;
    private volatile FirstStart.Started started;

    FirstStartBanner(Supplier<FirstStart.Started> ensure, Path dataDir) {
        this.ensure = ensure;
        this.dataDir = dataDir;
    }

    @Override
    public void afterSingletonsInstantiated() {
        started = ensure.get();
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        FirstStart.Started announced = started;
        if (announced != null && announced.newKey() != null) {
            FirstStart.announce(announced, dataDir, System.out, "http://localhost:" + event.getWebServer().getPort());
            started = new FirstStart.Started(announced.owner(), null);
        }
    }
}

package org.agentplatform.infra.support;

import java.io.IOException;
import java.net.ServerSocket;

/** A local port nothing listens on right now, for a process the tests start. */
final class FreePort {

    private FreePort() {
    }

    static int pick() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

package org.agentplatform.command.terminal;

import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalEnd;
import org.agentplatform.kernel.terminal.TerminalId;

/** Port: where terminals' shells run (the local provider: on this host). */
public interface TerminalHost {

    /** Ends the terminal's shell, if it runs here, and closes its connection with the reason; nothing if it does not. */
    void end(TerminalId terminal, TerminalEnd reason);

    /** The instance is destroyed: what its terminals left behind (their workspace) goes too. */
    void discard(InstanceId instance);
}

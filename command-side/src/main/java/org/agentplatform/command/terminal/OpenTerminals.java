package org.agentplatform.command.terminal;

import java.util.List;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalId;

/**
 * Port: the terminal lifecycle's own record of the terminals that have not ended, written as it handles their events in
 * its processor's transaction, so what it reads is exactly what it has seen, never a read model that may lag behind.
 */
public interface OpenTerminals {

    void opened(TerminalId terminal, InstanceId instance);

    void ended(TerminalId terminal);

    /** The instance's terminals that have not ended. */
    List<TerminalId> on(InstanceId instance);
}

package org.agentplatform.infra.local.terminal;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.agentplatform.kernel.terminal.TerminalCommand.Attachment;

/**
 * A terminal shell's whole environment, built from nothing: none of the service's own variables (its settings,
 * {@code AGENT_PLATFORM_*}, the vault key, database passwords) reach it.
 */
final class ShellEnvironment {

    private ShellEnvironment() {
    }

    static Map<String, String> of(Attachment terminal, Path workspace, String shell, String user, String path) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("HOME", workspace.toString());
        environment.put("PWD", workspace.toString());
        environment.put("SHELL", shell);
        environment.put("USER", user);
        environment.put("LOGNAME", user);
        environment.put("PATH", path);
        environment.put("TERM", "xterm-256color");
        environment.put("LANG", "C.UTF-8");
        environment.put("TERMINAL_ID", terminal.terminalId().toString());
        environment.put("INSTANCE_ID", terminal.instanceId().toString());
        if (terminal.agentId() != null) {
            environment.put("AGENT_ID", terminal.agentId().toString());
        }
        if (terminal.conversationId() != null) {
            environment.put("CONVERSATION_ID", terminal.conversationId().toString());
        }
        return environment;
    }
}

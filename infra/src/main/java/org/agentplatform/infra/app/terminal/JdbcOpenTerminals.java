package org.agentplatform.infra.app.terminal;

import java.util.List;
import java.util.UUID;
import org.agentplatform.command.terminal.OpenTerminals;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalId;
import org.springframework.jdbc.core.JdbcTemplate;

/** {@link OpenTerminals} in {@code terminal_open}, written in the terminal lifecycle processor's own transaction. */
final class JdbcOpenTerminals implements OpenTerminals {

    private final JdbcTemplate jdbc;

    JdbcOpenTerminals(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void opened(TerminalId terminal, InstanceId instance) {
        jdbc.update("INSERT INTO terminal_open (terminal_id, instance_id) VALUES (?, ?) ON CONFLICT (terminal_id) DO NOTHING",
                terminal.value(), instance.value());
    }

    @Override
    public void ended(TerminalId terminal) {
        jdbc.update("DELETE FROM terminal_open WHERE terminal_id = ?", terminal.value());
    }

    @Override
    public List<TerminalId> on(InstanceId instance) {
        return jdbc.queryForList("SELECT terminal_id FROM terminal_open WHERE instance_id = ?", UUID.class, instance.value())
                .stream().map(TerminalId::new).toList();
    }
}

package org.agentplatform.infra.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agentplatform.infra.audit.AuditVerifier;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -jar agent-platform.jar audit verify [--export <file>]}
 * <p>
 * Checks the audit chain of the configured database (every link, that no event of the store is left out, every
 * checkpoint and its signature), or an NDJSON export of {@code GET /api/v1/audit/export}, and names the first event
 * that does not match. Exit codes: 0 all match, 1 a mismatch, 2 usage.
 */
public final class AuditCommand {

    public static final String NAME = "audit";
    static final String USAGE = """
            usage: java -jar agent-platform.jar audit verify [--<setting>=<value> ...]
                   java -jar agent-platform.jar audit verify --export <file.ndjson>
              Configuration as for the service (AGENT_PLATFORM_DATA_DIR, AGENT_PLATFORM_DATABASE_URL, ...).""";

    private AuditCommand() {
    }

    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || !args[0].equals("verify")) {
            err.println(USAGE);
            return 2;
        }
        Path export = null;
        List<String> settings = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--export") && i + 1 < args.length) {
                export = Path.of(args[++i]);
            } else if (args[i].startsWith("--") && args[i].contains("=")) {
                settings.add(args[i]);
            } else {
                err.println(USAGE);
                return 2;
            }
        }
        try {
            AuditVerifier.Result result;
            if (export != null) {
                try (BufferedReader lines = Files.newBufferedReader(export, StandardCharsets.UTF_8)) {
                    result = AuditVerifier.verifyExport(lines, JsonMapper.builder().build());
                }
            } else {
                try (CliDatabase database = CliDatabase.open(settings)) {
                    result = AuditVerifier.verifyStore(database.jdbc());
                }
            }
            if (result.mismatch().isPresent()) {
                out.println("MISMATCH after " + result.checked() + " matching event(s): " + result.mismatch().get());
                return 1;
            }
            out.println("ok: " + result.checked() + " event(s) match the chain" + (export == null ? ", and every checkpoint its signature" : ""));
            return 0;
        } catch (IOException unreadable) {
            err.println("cannot read: " + unreadable.getMessage());
            return 2;
        }
    }
}

package org.agentplatform.infra.cli;

import com.nimbusds.jose.jwk.JWKSet;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.agentplatform.infra.audit.AuditProofs;
import org.agentplatform.infra.audit.AuditVerifier;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -jar agent-platform.jar audit verify [--export <file>]},
 * {@code audit prove --tree-head --event --proof [--jwks]}, {@code audit verify-consistency --first --second --proof [--jwks]}
 * <p>
 * Checks the audit chain of the configured database (every link, that no event of the store is left out, every
 * checkpoint and its signature), or an NDJSON export of {@code GET /api/v1/audit/export}, and names the first event
 * that does not match; or, offline, an inclusion or a consistency proof of the log's Merkle tree against signed tree
 * heads ({@link AuditProofs}). Exit codes: 0 all match, 1 a mismatch, 2 usage or an unreadable file.
 */
public final class AuditCommand {

    public static final String NAME = "audit";
    static final String USAGE = """
            usage: java -jar agent-platform.jar audit verify [--<setting>=<value> ...]
                   java -jar agent-platform.jar audit verify --export <file.ndjson>
                   java -jar agent-platform.jar audit prove --tree-head <head.json> --event <export-line.json> --proof <proof.json> [--jwks <jwks.json>]
                   java -jar agent-platform.jar audit verify-consistency --first <head.json> --second <head.json> --proof <proof.json> [--jwks <jwks.json>]
              verify: the store (configuration as for the service: AGENT_PLATFORM_DATA_DIR, AGENT_PLATFORM_DATABASE_URL, ...) or an export.
              prove, verify-consistency: offline, from the API's answers saved as files (a tree head of GET /api/v1/audit/tree-heads,
              an export line, GET /api/v1/audit/events/{index}/proof or /audit/consistency); --jwks also checks the heads' signatures.""";

    private AuditCommand() {
    }

    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 0 && (args[0].equals("prove") || args[0].equals("verify-consistency"))) {
            return proof(args, out, err);
        }
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

    /** {@code prove} or {@code verify-consistency}: the files named by the options, checked offline. */
    private static int proof(String[] args, PrintStream out, PrintStream err) {
        Map<String, Path> files = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                err.println(USAGE);
                return 2;
            }
            files.put(args[i].substring(2), Path.of(args[++i]));
        }
        boolean inclusion = args[0].equals("prove");
        List<String> required = inclusion ? List.of("tree-head", "event", "proof") : List.of("first", "second", "proof");
        if (!files.keySet().containsAll(required) || !required.containsAll(files.keySet().stream().filter(name -> !name.equals("jwks")).toList())) {
            err.println(USAGE);
            return 2;
        }
        try {
            JsonMapper json = JsonMapper.builder().build();
            JWKSet keys = files.containsKey("jwks") ? JWKSet.parse(Files.readString(files.get("jwks"), StandardCharsets.UTF_8)) : null;
            Optional<String> failed = inclusion
                    ? AuditProofs.inclusion(json.readTree(files.get("tree-head").toFile()), json.readTree(files.get("event").toFile()),
                            json.readTree(files.get("proof").toFile()), keys)
                    : AuditProofs.consistency(json.readTree(files.get("first").toFile()), json.readTree(files.get("second").toFile()),
                            json.readTree(files.get("proof").toFile()), keys);
            if (failed.isPresent()) {
                out.println("MISMATCH: " + failed.get());
                return 1;
            }
            out.println("ok: " + (inclusion ? "the event is in the signed tree" : "the second signed tree extends the first")
                    + (keys == null ? " (signatures not checked: no --jwks)" : ", signed by a key of the JWKS"));
            return 0;
        } catch (IOException | JacksonException | ParseException unreadable) {
            err.println("cannot read: " + unreadable.getMessage());
            return 2;
        }
    }
}

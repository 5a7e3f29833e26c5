package org.agentplatform.infra.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.agentplatform.api.identity.ContentErasure.Erased;
import org.agentplatform.infra.adapter.file.FilesConfiguration;
import org.agentplatform.infra.adapter.secret.OwnerContentEraser;
import org.agentplatform.infra.adapter.secret.OwnerDataKeys;
import org.agentplatform.infra.adapter.secret.VaultKey;
import org.agentplatform.infra.eventstore.AxonConfiguration;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.identity.OwnerId;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.eventhandling.EventBus;
import org.axonframework.eventhandling.gateway.DefaultEventGateway;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.jackson3.Jackson3Serializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code java -jar agent-platform.jar owners erase --owner <owner-id>}
 * <p>
 * An operator erases an owner's personal content (crypto-shredding), as the owner's own {@code DELETE
 * /api/v1/owners/me/content} does: the owner's files are deleted, its data keys destroyed, and {@code OwnerContentErased} recorded in the
 * event store with the operator's command as its actor ({@code system:cli}). Works beside a running service (which
 * forgets the keys within 10 s) or with it stopped. Exit codes: 0 erased, 1 failed, 2 usage.
 */
public final class OwnersCommand {

    public static final String NAME = "owners";
    /** The actor an operator's erasure is recorded with. */
    static final String ACTOR = "cli";
    static final String USAGE = """
            usage: java -jar agent-platform.jar owners erase --owner <owner-id> [--<setting>=<value> ...]
              Destroys the owner's data keys (its messages, replies, streamed chunks and file names read "[erased]" from
              then on) and deletes its uploaded files.
              Configuration as for the service (AGENT_PLATFORM_DATA_DIR, AGENT_PLATFORM_SECRETS_KEY, AGENT_PLATFORM_DATABASE_URL, ...).""";

    private OwnersCommand() {
    }

    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        Optional<Request> request = Request.parse(args);
        if (request.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        try (CliDatabase database = CliDatabase.open(request.get().settings())) {
            Erased erased = eraser(database).eraseNow(request.get().owner(), AuditMetadata.byProcess(ACTOR));
            out.printf("owner %s: content erased at %s, %d data key(s) destroyed, %d file(s) deleted%n", erased.ownerId(),
                    erased.erasedAt(), erased.keysDestroyed(), erased.filesDeleted());
            return 0;
        } catch (IOException | RuntimeException failure) {
            err.println("owners erase failed: " + failure.getMessage());
            return 1;
        }
    }

    /** The service's eraser on the command's database: its keys, and its event store appended to in the keys' transaction. */
    private static OwnerContentEraser eraser(CliDatabase database) {
        Clock clock = Clock.systemUTC();
        Jackson3Serializer serializer = Jackson3Serializer.builder().build();
        JdbcEventStorageEngine storage = JdbcEventStorageEngine.builder()
                .connectionProvider(new SpringDataSourceConnectionProvider(database.dataSource()))
                .transactionManager(NoTransactionManager.INSTANCE)
                .eventSerializer(serializer)
                .snapshotSerializer(serializer)
                .schema(AxonConfiguration.EVENTS)
                .dataType(byte[].class)
                .build();
        EventBus events = EmbeddedEventStore.builder().storageEngine(storage).optimizeEventConsumption(false).build();
        SecretKey vaultKey = VaultKey.resolve(database.properties().secrets().key(), database.properties().dataDir());
        OwnerDataKeys keys = new OwnerDataKeys(database.jdbc(), vaultKey, clock);
        return new OwnerContentEraser(keys, FilesConfiguration.ownerFiles(database.jdbc(), database.properties(), vaultKey, keys, clock),
                DefaultEventGateway.builder().eventBus(events).build(),
                new TransactionTemplate(new JdbcTransactionManager(database.dataSource())), clock);
    }

    private record Request(OwnerId owner, List<String> settings) {

        static Optional<Request> parse(String[] args) {
            if (args.length < 3 || !args[0].equals("erase") || !args[1].equals("--owner")) {
                return Optional.empty();
            }
            OwnerId owner;
            try {
                owner = OwnerId.of(args[2]);
            } catch (IllegalArgumentException notAnOwnerId) {
                return Optional.empty();
            }
            List<String> settings = new ArrayList<>();
            for (int index = 3; index < args.length; index++) {
                if (!args[index].startsWith("--") || !args[index].contains("=")) {
                    return Optional.empty();
                }
                settings.add(args[index]);
            }
            return Optional.of(new Request(owner, settings));
        }
    }
}

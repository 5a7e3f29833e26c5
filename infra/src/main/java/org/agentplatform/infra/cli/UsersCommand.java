package org.agentplatform.infra.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.agentplatform.infra.adapter.identity.FirstStart;
import org.agentplatform.infra.adapter.identity.IdentityConfiguration;
import org.agentplatform.infra.adapter.identity.UserAdmin;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.identity.UserId;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code java -jar agent-platform.jar users create --email <email> [--owner <owner-id> | --new-owner <name>] [--setting=value]},
 * {@code ... users disable --email <email>}
 * <p>
 * Creates a user of the built-in identity who can then log in ({@code POST /api/v1/auth/login}). By
 * default the user joins the first owner (the one the first API key belongs to). The password is read
 * from the console (asked twice), or from the first line of standard input when there is no console.
 * Works whether or not the service is running: beside a running service it uses that service's
 * embedded database.
 */
public final class UsersCommand {

    public static final String NAME = "users";
    private static final int MIN_PASSWORD_LENGTH = 8;
    static final String USAGE = """
            usage: java -jar agent-platform.jar users create --email <email> [--owner <owner-id> | --new-owner <name>]
                                                             [--<setting>=<value> ...]
                   java -jar agent-platform.jar users disable --email <email> [--<setting>=<value> ...]
              The password is asked on the console, or read from the first line of standard input.
              Configuration as for the service: AGENT_PLATFORM_DATA_DIR, AGENT_PLATFORM_DATABASE_URL (+ _USER, _PASSWORD),
              or settings such as --agent-platform.data-dir=/var/lib/agent-platform.""";

    private UsersCommand() {
    }

    public static int run(String[] args) {
        return run(args, System.in, System.out, System.err);
    }

    static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        Optional<Request> request;
        try {
            request = Request.parse(args);
        } catch (IllegalArgumentException malformedOwner) {
            request = Optional.empty();
        }
        if (request.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        try {
            String password = request.get().disable() ? null : readPassword(in);
            try (CliDatabase database = CliDatabase.open(request.get().settings())) {
                return request.get().disable()
                        ? disableUser(request.get().email(), database, out, err)
                        : createUser(request.get(), password, database, out);
            }
        } catch (IllegalArgumentException refused) {
            err.println("users " + request.get().action() + ": " + refused.getMessage());
            return 1;
        } catch (IOException | RuntimeException failure) {
            err.println("users " + request.get().action() + " failed: " + failure.getMessage());
            return 1;
        }
    }

    private static int disableUser(String email, CliDatabase database, PrintStream out, PrintStream err) {
        if (!new UserAdmin(database.jdbc(), IdentityConfiguration.passwords(), Clock.systemUTC()).disable(email)) {
            err.println("users disable: no user <" + email + ">");
            return 1;
        }
        out.println("disabled user <" + email + ">: it cannot log in, and its tokens stop working within the credential cache's lifetime");
        return 0;
    }

    private static int createUser(Request request, String password, CliDatabase database, PrintStream out) throws IOException {
        Clock clock = Clock.systemUTC();
        PlatformProperties properties = database.properties();
        JdbcTemplate jdbc = database.jdbc();
        FirstStart.Started started = new FirstStart(jdbc, new TransactionTemplate(new JdbcTransactionManager(database.dataSource())), clock)
                .ensure(properties.identity().defaultKeyRateLimitPerMinute(), properties.dataDir());
        FirstStart.announce(started, properties.dataDir(), out, null);
        OwnerId firstOwner = started.owner();
        UserAdmin admin = new UserAdmin(jdbc, IdentityConfiguration.passwords(), clock);
        OwnerId owner = request.newOwnerName() != null
                ? admin.createOwner(request.newOwnerName())
                : request.owner() != null ? request.owner() : firstOwner;
        UserId user = admin.create(request.email(), password, owner);
        out.println("created user " + user + " <" + request.email() + "> of owner " + owner);
        return 0;
    }

    private static String readPassword(InputStream in) throws IOException {
        Console console = in == System.in ? terminal() : null;
        String password;
        if (console != null) {
            char[] first = console.readPassword("password: ");
            char[] second = console.readPassword("password again: ");
            if (first == null || !Arrays.equals(first, second)) {
                throw new IllegalArgumentException("the passwords differ");
            }
            password = new String(first);
        } else {
            String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
            password = line == null ? "" : line;
        }
        if (password.length() < MIN_PASSWORD_LENGTH) {
            throw new IllegalArgumentException("the password needs at least " + MIN_PASSWORD_LENGTH + " characters");
        }
        return password;
    }

    /** The console when it is a real terminal (since JDK 22 {@code System.console()} may exist without one). */
    private static Console terminal() {
        Console console = System.console();
        if (console == null) {
            return null;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console) ? console : null;
        } catch (ReflectiveOperationException beforeJdk22) {
            return console;
        }
    }

    /** The parsed command line; {@code settings} are {@code --name=value} configuration overrides. */
    record Request(String action, String email, OwnerId owner, String newOwnerName, List<String> settings) {

        boolean disable() {
            return action.equals("disable");
        }

        static Optional<Request> parse(String[] args) {
            if (args.length == 0 || !(args[0].equals("create") || args[0].equals("disable"))) {
                return Optional.empty();
            }
            String email = null;
            OwnerId owner = null;
            String newOwner = null;
            List<String> settings = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                if (args[i].startsWith("--") && args[i].contains("=")) {
                    settings.add(args[i]);
                    continue;
                }
                String value = i + 1 < args.length ? args[++i] : null;
                switch (args[i - 1]) {
                    case "--email" -> email = value;
                    case "--owner" -> owner = value == null ? null : OwnerId.of(value);
                    case "--new-owner" -> newOwner = value;
                    default -> {
                        return Optional.empty();
                    }
                }
            }
            if (email == null || !email.contains("@") || email.length() > 320 || (owner != null && newOwner != null)
                    || (args[0].equals("disable") && (owner != null || newOwner != null))) {
                return Optional.empty();
            }
            return Optional.of(new Request(args[0], email, owner, newOwner, List.copyOf(settings)));
        }
    }
}

package org.agentplatform.infra.cli;

import java.util.List;

/** What {@code java -jar agent-platform.jar --help} prints: the server and every command, with their usage. */
public final class Help {

    private static final List<String> FLAGS = List.of("--help", "-h", "help");

    private Help() {
    }

    public static boolean asked(String[] args) {
        return args.length > 0 && FLAGS.contains(args[0]);
    }

    /** A first argument that is neither a setting ({@code --name=value}) nor a command: a typo, not a server start. */
    public static boolean unknownCommand(String[] args) {
        return args.length > 0 && !args[0].startsWith("-");
    }

    public static String text() {
        return String.join("\n\n",
                """
                Agent Platform API: the service and its commands.

                usage: java -jar agent-platform.jar [--<setting>=<value> ...]
                  Serves the API (http://localhost:8080 unless SERVER_PORT says otherwise). With no database configured it
                  runs its own embedded PostgreSQL in ./data (AGENT_PLATFORM_DATA_DIR). Settings are environment variables
                  (AGENT_PLATFORM_*, SERVER_PORT) or --name=value arguments; the README lists them.""",
                "Users of the built-in identity:\n" + UsersCommand.USAGE,
                "The audit chain:\n" + AuditCommand.USAGE,
                "Erasing an owner's personal content:\n" + OwnersCommand.USAGE,
                "Read models (event processors):\n" + ProjectionsCommand.USAGE,
                "Parked events:\n" + DeadLettersCommand.USAGE,
                "The ahead-of-time cache's training run (the build makes it; see the README):\n" + TrainCommand.USAGE) + "\n";
    }
}

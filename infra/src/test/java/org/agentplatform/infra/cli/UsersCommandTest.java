package org.agentplatform.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The CLI's refusals, before it touches any database. */
class UsersCommandTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void withoutASubcommandItPrintsUsage() {
        assertThat(run("", new String[] {})).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: java -jar agent-platform.jar users create");
    }

    @Test
    void createNeedsAnEmail() {
        assertThat(run("password123", "create")).isEqualTo(2);
        assertThat(run("password123", "create", "--email", "not-an-email")).isEqualTo(2);
    }

    @Test
    void ownerAndNewOwnerExcludeEachOther() {
        assertThat(run("password123", "create", "--email", "a@b.c", "--owner", "00000000-0000-0000-0000-000000000001",
                "--new-owner", "x")).isEqualTo(2);
        assertThat(run("password123", "create", "--email", "a@b.c", "--owner", "not-a-uuid")).isEqualTo(2);
    }

    @Test
    void aShortPasswordIsRefused() {
        assertThat(run("short", "create", "--email", "a@b.c")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("at least 8 characters");
    }

    private int run(String password, String... args) {
        return UsersCommand.run(args, new ByteArrayInputStream((password + "\n").getBytes(StandardCharsets.UTF_8)),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}

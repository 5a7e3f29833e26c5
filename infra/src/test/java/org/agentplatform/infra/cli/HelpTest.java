package org.agentplatform.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agentplatform.infra.AgentPlatformApplication;
import org.junit.jupiter.api.Test;

/** The executable as a newcomer first meets it: {@code --help} lists the commands and starts nothing; a typo is refused. */
class HelpTest {

    @Test
    void helpPrintsTheServiceAndEveryCommandAndExits() throws Exception {
        Run help = run("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.output()).contains("java -jar agent-platform.jar [--<setting>=<value> ...]")
                .contains("users create --email").contains("audit verify").contains("projections rebuild").contains("deadletters retry")
                .doesNotContain("Started AgentPlatformApplication");
        assertThat(run("-h").output()).isEqualTo(help.output());
    }

    @Test
    void anUnknownCommandIsRefusedInsteadOfStartingTheServer() throws Exception {
        Run typo = run("user", "create");
        assertThat(typo.exit()).isEqualTo(2);
        assertThat(typo.output()).startsWith("No command user").contains("users create --email");
    }

    private record Run(int exit, String output) {
    }

    /** The application's main in a process of its own (it exits the JVM), on this test's class path. */
    private static Run run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), AgentPlatformApplication.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), output);
    }
}

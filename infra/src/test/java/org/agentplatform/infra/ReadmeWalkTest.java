package org.agentplatform.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentplatform.infra.adapter.identity.FirstStart;
import org.agentplatform.infra.support.StandaloneService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The README's examples, as a newcomer pastes them into a shell (bash, curl, jq) against a fresh service: from the
 * instances section to the configuration they run top to bottom, each taking the ids it needs from earlier answers, and
 * reach a completed, streamed task. The command-line lines (the jar, not built yet when the tests run) are left out; their
 * commands have tests of their own.
 */
class ReadmeWalkTest {

    private static final Pattern SHELL_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path home;

    @Test
    void theReadmeExamplesRunTopToBottomAndReachACompletedStreamedTask() throws IOException, InterruptedException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String walked = readme.substring(readme.indexOf("## Instances, agents and runtime operations"), readme.indexOf("## Configuration"));
        StringBuilder script = new StringBuilder();
        Matcher blocks = SHELL_BLOCK.matcher(walked);
        while (blocks.find()) {
            script.append(blocks.group(1)).append('\n');
        }
        Path dataDir = home.resolve("data");
        try (ConfigurableApplicationContext service = StandaloneService.start(dataDir)) {
            String port = service.getEnvironment().getProperty("local.server.port");
            String commands = script.toString()
                    .replace("http://localhost:8080", "http://localhost:" + port)
                    .replace("cat data/" + FirstStart.KEY_FILE, "cat " + dataDir.resolve(FirstStart.KEY_FILE))
                    .replaceAll("(?m)^\"\\$\\(\\.ci/jdk\\)/bin/java\" -jar infra/target/agent-platform\\.jar.*$", ": the jar command");
            Path walk = home.resolve("walk.sh");
            Files.writeString(walk, commands);
            Process bash = new ProcessBuilder("timeout", "240", "bash", walk.toString()).directory(home.toFile()).redirectErrorStream(true).start();
            String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(bash.waitFor(300, TimeUnit.SECONDS)).isTrue();
            assertThat(bash.exitValue()).as("the walk's exit status; it printed:%n%s", output).isZero();
            assertThat(output).as("the operation and the task streamed to their end").contains("event:operation.succeeded").contains("event:done")
                    .contains("\"status\":\"completed\",\"final\":true");
            for (String mistake : new String[] {"invalid_json", "invalid_param", "missing_param", "\"not_found\"", "agent_not_found",
                    "internal_error", ": null", "/null"}) {
                assertThat(output).as("a README line answered %s; it printed:%n%s", mistake, output).doesNotContain(mistake);
            }
        }
    }
}

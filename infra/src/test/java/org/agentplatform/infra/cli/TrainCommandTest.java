package org.agentplatform.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The ahead-of-time cache's training run drives every path of its workload against a real service without a failure
 * (a failing workload would leave the cache without what it failed before), and its usage is checked. That the packaged
 * jar makes and uses the cache is the build's own step (the {@code aot-cache} profile) and {@code bin/agent-platform}'s.
 */
class TrainCommandTest {

    @Test
    void theWorkloadRunsThroughWithoutAFailure() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = TrainCommand.run(new String[] {"--seconds", "3"}, new PrintStream(out, true, StandardCharsets.UTF_8));
        String said = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).isZero();
        assertThat(said).as(said).startsWith("train: ").doesNotContain("failed");
        assertThat(Long.parseLong(said.split(" ")[1])).as("requests made").isGreaterThan(10);
    }

    @Test
    void aWrongArgumentIsUsage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(TrainCommand.run(new String[] {"--minutes", "3"}, new PrintStream(out, true, StandardCharsets.UTF_8))).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("usage: ");
    }
}

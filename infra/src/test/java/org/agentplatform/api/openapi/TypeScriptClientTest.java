package org.agentplatform.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;

/**
 * A TypeScript client generated from docs/openapi.json (openapi-typescript types, openapi-fetch calls) is compiled with
 * {@code tsc --strict} and walks the README's flow against the running service ({@code src/test/typescript/src/walk.ts}),
 * checking every answer against the document with Ajv on its side. Needs Node.js 18 or newer and npm's registry (the
 * packages are pinned by the project's lock file); {@code .ci/run} installs Node.js where it is missing.
 */
class TypeScriptClientTest extends ApiTest {

    private static final Path PROJECT = Path.of("src", "test", "typescript");
    private static final Path WORK = Path.of("target", "typescript-client");

    @Test
    void aClientGeneratedFromTheDocumentCompilesStrictlyAndWalksTheReadmeFlow() throws IOException, InterruptedException {
        copyProject();
        run(List.of("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"), 300);
        run(List.of("node_modules/.bin/openapi-typescript", Path.of("..", "..", "..", "docs", "openapi.json").toString(), "-o", "src/openapi.ts"), 120);
        run(List.of("node_modules/.bin/tsc", "-p", "."), 180);
        String walked = run(List.of("node", "build/walk.js", "http://localhost:" + port, firstKey(),
                Path.of("..", "..", "..", "docs", "openapi.json").toString()), 300);
        assertThat(walked).as("the walk ended, every answer checked against the document").containsPattern("walk: ok \\(\\d{2,} answers matched the document\\)");
    }

    /** The project's sources into target/, so that its node_modules and build never land in the source tree. */
    private static void copyProject() throws IOException {
        Files.createDirectories(WORK.resolve("src"));
        for (String file : List.of("package.json", "package-lock.json", "tsconfig.json")) {
            Files.copy(PROJECT.resolve(file), WORK.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        try (Stream<Path> sources = Files.list(PROJECT.resolve("src"))) {
            for (Path source : sources.toList()) {
                Files.copy(source, WORK.resolve("src").resolve(source.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Runs a command in the project's copy (stopped by {@code timeout} if it hangs) and answers what it printed; fails on a non-zero exit. */
    private static String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        List<String> bounded = Stream.concat(Stream.of("timeout", String.valueOf(timeoutSeconds)), command.stream()).toList();
        Process process = new ProcessBuilder(bounded).directory(WORK.toFile()).redirectErrorStream(true).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("%s ended", command).isTrue();
        assertThat(process.exitValue()).as("%s's exit status (124: it ran out of its %d s); it printed:%n%s", command, timeoutSeconds, printed)
                .isZero();
        return printed;
    }
}

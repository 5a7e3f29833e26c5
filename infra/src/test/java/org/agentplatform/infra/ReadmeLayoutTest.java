package org.agentplatform.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's Layout sends a newcomer to files that exist: every {@code module: path} it names, every infra package. */
class ReadmeLayoutTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern MODULE_PATH = Pattern.compile("`([a-z-]+): ([\\w/]+\\.java)`");
    private static final Pattern INFRA_PACKAGE = Pattern.compile("^\\| `(\\w+)/` \\|", Pattern.MULTILINE);

    @Test
    void everyPlaceTheLayoutNamesExists() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String layout = readme.substring(readme.indexOf("## Layout"), readme.indexOf("## Tests and PostgreSQL"));
        List<Path> named = MODULE_PATH.matcher(layout).results()
                .map(found -> ROOT.resolve(found.group(1)).resolve("src/main/java/org/agentplatform").resolve(found.group(2)))
                .toList();
        assertThat(named).hasSizeGreaterThanOrEqualTo(8).allSatisfy(path -> assertThat(path).isRegularFile());
        List<String> packages = INFRA_PACKAGE.matcher(layout).results().map(found -> found.group(1)).toList();
        Path infra = ROOT.resolve("infra/src/main/java/org/agentplatform/infra");
        assertThat(packages).allSatisfy(name -> assertThat(infra.resolve(name)).isDirectory());
        try (var listing = Files.list(infra)) {
            assertThat(packages).as("every infra package is in the Layout")
                    .containsExactlyInAnyOrderElementsOf(listing.filter(Files::isDirectory).map(path -> path.getFileName().toString()).toList());
        }
    }
}

package org.agentplatform.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.agentplatform.kernel.FrameworkReplacement;
import org.junit.jupiter.api.Test;

/**
 * The register of framework replacements ({@code docs/framework-replacements.md}) and the code agree: every class marked
 * {@link FrameworkReplacement} has a row, every row names a marked class, and every row's parity test exists.
 */
class FrameworkReplacementsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path REGISTER = ROOT.resolve("docs/framework-replacements.md");
    private static final Pattern ROW = Pattern.compile("^\\| `(\\w+)` \\|[^|]*\\|[^|]*\\| ([^|]*) \\|[^|]*\\|$");

    @Test
    void everyMarkedClassHasARowAndEveryRowAMarkedClassWithItsParityTest() throws IOException {
        check(Files.readString(REGISTER));
    }

    @Test
    void aRowRemovedFromTheRegisterFailsTheCheck() throws IOException {
        String register = Files.readString(REGISTER);
        String withoutOne = register.lines().filter(line -> !line.startsWith("| `SharedEventStream`")).collect(Collectors.joining("\n"));
        assertThatThrownBy(() -> check(withoutOne)).isInstanceOf(AssertionError.class);
    }

    private static void check(String register) throws IOException {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : register.lines().toList()) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                rows.put(row.group(1), Pattern.compile("`(\\w+)`").matcher(row.group(2)).results().map(found -> found.group(1)).toList());
            }
        }
        Set<String> marked = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.agentplatform").stream()
                .filter(type -> type.isAnnotatedWith(FrameworkReplacement.class))
                .map(JavaClass::getSimpleName)
                .collect(Collectors.toSet());
        assertThat(rows.keySet()).as("the register's rows against the classes marked @FrameworkReplacement")
                .containsExactlyInAnyOrderElementsOf(marked);
        Set<String> tests = testClasses();
        rows.forEach((replacement, parityTests) -> {
            assertThat(parityTests).as("the parity test of %s", replacement).isNotEmpty();
            assertThat(tests).as("the parity tests of %s", replacement).containsAll(parityTests);
        });
    }

    /** The simple names of every module's test classes. */
    private static Set<String> testClasses() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT, 12)) {
            return files.filter(path -> path.toString().contains("/src/test/java/") && path.toString().endsWith("Test.java"))
                    .map(path -> path.getFileName().toString().replace(".java", ""))
                    .collect(Collectors.toSet());
        }
    }
}

package org.agentplatform.infra.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs a Python recipe of the docs as a reader would copy it: the {@code python} block whose first line is {@code # recipe: <name>}. */
public final class PythonRecipe {

    private PythonRecipe() {
    }

    /** The last line the recipe {@code name} of {@code docs/<doc>} prints when run with {@code args}. */
    public static String run(String doc, String name, String... args) throws Exception {
        String text = Files.readString(Path.of("..", "docs", doc));
        Matcher block = Pattern.compile("```python\\n(# recipe: " + Pattern.quote(name) + "\\b.*?)```", Pattern.DOTALL).matcher(text);
        assertThat(block.find()).as("the recipe '%s' in docs/%s", name, doc).isTrue();
        List<String> command = new ArrayList<>(List.of("python3", "-c", block.group(1)));
        command.addAll(List.of(args));
        Process python = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(python.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return output.lines().reduce((a, b) -> b).orElse("");
    }
}

package org.agentplatform.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.agentplatform.api.terminal.TerminalSocket;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * The served OpenAPI document: public, valid OpenAPI 3.1, exactly the service's routes (no more, no fewer), and equal to the
 * checked-in {@code docs/openapi.json} that the generated client is built from. After a route change, write the new one
 * with {@code -Dopenapi.update=true}.
 */
class OpenApiDocumentTest extends ApiTest {

    private static final Path CHECKED_IN = Path.of("..", "docs", "openapi.json");

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    private RequestMappingHandlerMapping routes;

    @Test
    void theDocumentIsPublicValidOpenApi31AndChecksIn() throws IOException {
        String json = served("/api/v1/openapi.json");
        JsonNode document = JSON.readTree(json);
        assertThat(document.get("openapi").asString()).isEqualTo("3.1.0");
        assertThat(document.at("/info/version").asString()).isEqualTo("2.0.0");
        assertThat(served("/api/v1/openapi.yaml")).startsWith("openapi: 3.1.0");
        http.get().uri("/api/v1/docs").exchange().expectStatus().is3xxRedirection();
        http.get().uri("/api/v1/swagger-ui/index.html").exchange().expectStatus().isOk();

        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult parsed = new OpenAPIParser().readContents(json, null, options);
        assertThat(parsed.getMessages()).as("validation messages").isEmpty();
        assertThat(parsed.getOpenAPI().getSpecVersion().name()).isEqualTo("V31");

        assertThat(document.at("/servers/0/url").asString()).isEqualTo("/");
        String pretty = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(document) + "\n";
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "openapi.json"), pretty, StandardCharsets.UTF_8);
        if (Boolean.getBoolean("openapi.update")) {
            Files.writeString(CHECKED_IN, pretty, StandardCharsets.UTF_8);
        }
        assertThat(JSON.readTree(Files.readString(CHECKED_IN)).equals(document))
                .as("docs/openapi.json is the served document (target/openapi.json; regenerate with -Dopenapi.update=true)").isTrue();
    }

    @Test
    void everyRouteIsInTheDocumentAndNothingElse() {
        Set<String> served = new TreeSet<>();
        routes.getHandlerMethods().forEach((mapping, handler) -> {
            // the console's pages are a web app served beside the API, not part of it
            if (handler.getBeanType().getPackageName().startsWith("org.agentplatform.api")
                    && !handler.getBeanType().getPackageName().equals("org.agentplatform.api.console")) {
                mapping.getPatternsCondition().getPatterns().forEach(pattern -> mapping.getMethodsCondition().getMethods()
                        .forEach(method -> served.add(method.name() + " " + pattern.getPatternString().replaceAll("\\{(\\w+):[^}]*}", "{$1}"))));
            }
        });
        served.add("GET " + TerminalSocket.PATTERN);
        Set<String> documented = new TreeSet<>();
        JSON.readTree(served("/api/v1/openapi.json")).get("paths").properties().forEach(path -> path.getValue().properties()
                .forEach(operation -> documented.add(operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey())));
        assertThat(documented).as("the document's operations").isEqualTo(served);
    }

    private String served(String path) {
        return new String(http.get().uri(path).exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody(),
                StandardCharsets.UTF_8);
    }
}

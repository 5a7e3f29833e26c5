package org.agentplatform.api.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import tools.jackson.databind.JsonNode;

class CatalogHttpTest extends ApiTest {

    @Test
    void providersListsTheLocalProviderWithCamelCaseCapabilities() {
        JsonNode body = json(http.get().uri("/api/v1/providers").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange().expectStatus().isOk().expectBody().returnResult());
        assertThat(body.get("success").asBoolean()).isTrue();
        JsonNode local = body.get("data").get(0);
        assertThat(fieldNames(local.get("meta"))).containsExactly("id", "name", "description", "version");
        assertThat(local.at("/meta/id").asString()).isEqualTo("local");
        JsonNode capabilities = local.get("capabilities");
        assertThat(fieldNames(capabilities)).containsExactly("longRunning", "browserUse", "codeExec", "fileSystem",
                "customImage", "device", "maxDurationSec", "costModel");
        assertThat(capabilities.get("maxDurationSec").isInt()).isTrue();
        assertThat(capabilities.get("costModel").isString()).isTrue();
        assertThat(capabilities.get("longRunning").isBoolean()).isTrue();
        assertThat(local.at("/regions/0/id").asString()).isEqualTo("local");
        assertThat(local.at("/regions/0/kinds").toString()).contains("linux", "windows", "mac", "android");
        assertThat(local.at("/models/0/id").asString()).isEqualTo("echo");
        assertThat(local.at("/models/0/default").asBoolean()).isTrue();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}

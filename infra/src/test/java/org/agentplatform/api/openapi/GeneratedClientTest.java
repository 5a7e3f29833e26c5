package org.agentplatform.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agentplatform.client.ApiClient;
import org.agentplatform.client.ApiException;
import org.agentplatform.client.api.DeployApi;
import org.agentplatform.client.api.InstancesApi;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;

/** A client generated from docs/openapi.json by openapi-generator (java, native) makes real calls to the running service. */
class GeneratedClientTest extends ApiTest {

    @Test
    void theGeneratedClientListsProvidersAndReadsTheErrorEnvelope() throws ApiException {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://localhost:" + port);
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + firstKey()));

        var providers = new DeployApi(client).catalogProviders();
        assertThat(providers.getSuccess()).isTrue();
        assertThat(providers.getData()).anySatisfy(provider -> assertThat(provider.getMeta().getId()).isEqualTo("local"));

        assertThatThrownBy(() -> new InstancesApi(client).instanceGet("00000000-0000-0000-0000-000000000000", null))
                .isInstanceOfSatisfying(ApiException.class, refused -> {
                    assertThat(refused.getCode()).isEqualTo(404);
                    assertThat(refused.getResponseBody()).contains("\"code\":\"not_found\"");
                });
    }
}

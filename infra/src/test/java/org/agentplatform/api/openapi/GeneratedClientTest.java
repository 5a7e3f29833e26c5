package org.agentplatform.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.agentplatform.client.ApiClient;
import org.agentplatform.client.ApiException;
import org.agentplatform.client.api.AgentsApi;
import org.agentplatform.client.api.ConversationsApi;
import org.agentplatform.client.api.DeployApi;
import org.agentplatform.client.api.FilesApi;
import org.agentplatform.client.api.InstancesApi;
import org.agentplatform.client.api.RuntimeApi;
import org.agentplatform.client.api.TasksApi;
import org.agentplatform.client.api.TerminalsApi;
import org.agentplatform.client.api.WebhooksApi;
import org.agentplatform.client.model.AttachmentRequest;
import org.agentplatform.client.model.CancelRequest;
import org.agentplatform.client.model.ContinueRequest;
import org.agentplatform.client.model.CreateRequest;
import org.agentplatform.client.model.Delivery;
import org.agentplatform.client.model.DeployRequest;
import org.agentplatform.client.model.InvokeRequest;
import org.agentplatform.client.model.JsonRpcRequest;
import org.agentplatform.client.model.JsonRpcResult;
import org.agentplatform.client.model.MessageRequest;
import org.agentplatform.client.model.OpenRequest;
import org.agentplatform.client.model.OperationSnapshot;
import org.agentplatform.client.model.TaskView;
import org.agentplatform.client.model.TerminalRequest;
import org.agentplatform.client.model.TicketView;
import org.agentplatform.client.model.UploadRequest;
import org.agentplatform.client.model.UploadView;
import org.agentplatform.client.model.WebhookRequest;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.WebhookReceiver;
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

    /**
     * The README's flow, through the generated client alone (typed bodies, typed answers; raw HTTP only where the README
     * itself leaves the API: the PUT to the presigned URL and the terminal's WebSocket): an instance, an agent through a
     * JSON-RPC call, tasks created, polled, streamed, continued and canceled, a webhook and its deliveries, a file
     * uploaded and attached, a conversation, a terminal ticket. Every answer also passes the document's check.
     */
    @Test
    void theReadmeFlowRunsThroughTheGeneratedClient() throws Exception {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://localhost:" + port);
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + firstKey()));
        InstancesApi instances = new InstancesApi(client);
        RuntimeApi runtime = new RuntimeApi(client);
        TasksApi tasks = new TasksApi(client);

        String instance = instances.instanceDeploy(new DeployRequest().provider("local").region("local").kind("linux"), "walk-" + UUID.randomUUID())
                .getData().getId();
        PlatformClient.await(() -> call(() -> instances.instanceGet(instance, null).getData().getStatus()), "running"::equals, "the instance running");
        JsonRpcResult queued = runtime.methodCall(instance, new JsonRpcRequest().jsonrpc(JsonRpcRequest.JsonrpcEnum._2_0).id(1)
                .method("agent/create").params(Map.of("name", "walker")), null);
        String operation = queued.getResult().getId();
        OperationSnapshot created = PlatformClient.await(() -> call(() -> runtime.operationGet(instance, operation, null)),
                snapshot -> Boolean.TRUE.equals(snapshot.getTerminal()), "agent/create finished");
        assertThat(created.getStatus()).isEqualTo("succeeded");
        String agent = (String) created.getProjection().get("platformAgentId");
        assertThat(new AgentsApi(client).agentGet(agent).getData().getId()).isEqualTo(agent);

        // a task with a webhook, followed to its end, its stream read whole, its log and the inbox
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String task = tasks.taskCreate(agent, new CreateRequest().message("summarize\n/echo deltas=3")
                    .webhooks(List.of(new WebhookRequest().url(receiver.url("/walk")).secret("whsec-0123456789abcdef")))).getData().getTaskId();
            TaskView done = PlatformClient.await(() -> call(() -> tasks.taskGet(agent, task, null).getData()),
                    view -> Boolean.TRUE.equals(view.getFinal()), "the task finished");
            assertThat(done.getStatus()).isEqualTo("completed");
            assertThat(done.getText()).isEqualTo("echo: summarize");
            // the stream with a plain HTTP client, as the README does with curl -N: generated clients read a body whole, as JSON
            HttpResponse<String> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                    + "/api/v1/agents/" + agent + "/tasks/" + task + "/events")).header("Authorization", "Bearer " + firstKey()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(stream.body()).contains("event:agent_reply_delta").contains("event:done");
            assertThat(tasks.taskMessages(agent, task, null, true, null).getData().getMessages()).isNotEmpty();
            assertThat(tasks.taskInbox(20L, null, agent, null, "completed").getData().getTasks()).extracting(TaskView::getTaskId).contains(task);
            WebhooksApi webhooks = new WebhooksApi(client);
            String webhook = webhooks.webhookList(agent, task, null, null).getData().getWebhooks().getFirst().getWebhookId();
            receiver.await("/walk", 3);
            List<Delivery> deliveries = PlatformClient.await(() -> call(() -> webhooks.webhookDeliveries(agent, task, webhook, 20L)
                    .getData().get("deliveries")), rows -> rows.size() == 3 && rows.stream().allMatch(row -> "succeeded".equals(row.getStatus())),
                    "three deliveries succeeded");
            assertThat(deliveries).allSatisfy(row -> assertThat(row.getAttemptNum()).isEqualTo(1));
        }

        // input, continue; a hanging task canceled
        String asking = tasks.taskCreate(agent, new CreateRequest().message("which colour?\n/echo then=input")).getData().getTaskId();
        PlatformClient.await(() -> call(() -> tasks.taskGet(agent, asking, null).getData().getStatus()), "input_required"::equals, "input asked");
        tasks.taskContinue(agent, asking, new ContinueRequest().message("blue"));
        String hanging = tasks.taskCreate(agent, new CreateRequest().message("wait\n/echo then=hang")).getData().getTaskId();
        assertThat(tasks.taskCancel(agent, hanging, new CancelRequest().reason("enough")).getData().getStatus()).isEqualTo("canceled");

        // a file uploaded through its presigned URL, then attached to an invoke
        UploadView upload = new FilesApi(client).filePresignUpload(new UploadRequest().contentType("text/plain").contentLengthBytes(6L)
                .filename("a.txt")).getData();
        HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(upload.getUploadUrl()))
                .header("Content-Type", "text/plain").PUT(HttpRequest.BodyPublishers.ofString("hello!")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(200);
        TaskView invoked = new AgentsApi(client).invokeInvoke(agent, new InvokeRequest().message("read this").timeoutMs(20_000L)
                .attachments(List.of(new AttachmentRequest().fileId(upload.getFileId())))).getData();
        assertThat(invoked.getStatus()).isEqualTo("completed");
        assertThat(new FilesApi(client).filePresignDownload(upload.getFileId()).getData().getDownloadUrl()).isNotBlank();

        // a conversation: open, two messages, its log since the first one's cursor, close
        ConversationsApi conversations = new ConversationsApi(client);
        String conversation = conversations.conversationOpen(agent, new OpenRequest().title("planning")).getData().getConversationId();
        Long cursor = conversations.conversationSend(agent, conversation, new MessageRequest().message("first")).getData().getCursor();
        conversations.conversationSend(agent, conversation, new MessageRequest().message("and then?\n/echo history"));
        PlatformClient.await(() -> call(() -> conversations.conversationGet(agent, conversation).getData()),
                view -> Integer.valueOf(2).equals(view.getTurn()) && "completed".equals(view.getTurnStatus()), "two turns answered");
        assertThat(conversations.conversationMessages(agent, conversation, cursor, false, null).getData().getMessages())
                .isNotEmpty();
        assertThat(conversations.conversationClose(agent, conversation).getData().getStatus()).isEqualTo("closed");

        // a terminal ticket, attached with the ticket as the only subprotocol, as a browser would
        TicketView ticket = new TerminalsApi(client).terminalCreate(instance, new TerminalRequest()).getData();
        String subprotocol = "ticket." + ticket.getTicket();
        java.net.http.WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols(subprotocol)
                .buildAsync(URI.create(ticket.getWebsocketUrl()), new java.net.http.WebSocket.Listener() { }).get(20, TimeUnit.SECONDS);
        assertThat(socket.getSubprotocol()).isEqualTo(subprotocol);
        socket.abort();
    }

    /** A call of the generated client, its checked exception made unchecked for a wait. */
    private static <T> T call(Callable<T> call) {
        try {
            return call.call();
        } catch (Exception failure) {
            throw new IllegalStateException(failure);
        }
    }
}


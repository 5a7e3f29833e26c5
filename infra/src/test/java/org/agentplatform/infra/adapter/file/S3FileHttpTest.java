package org.agentplatform.infra.adapter.file;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.S3MockServer;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Files on an S3-compatible store (a real S3Mock server): the presigned PUT goes straight to the store,
 * the file is confirmed (digest recorded) on first use, and the presigned GET downloads the same bytes.
 */
class S3FileHttpTest extends ApiTest {

    private static final byte[] NOTES = "meeting notes, version 2\n".getBytes(StandardCharsets.UTF_8);

    @DynamicPropertySource
    static void s3Store(DynamicPropertyRegistry registry) {
        registry.add("agent-platform.files.store", () -> "s3");
        registry.add("agent-platform.files.s3.endpoint", () -> S3MockServer.get().endpoint());
        registry.add("agent-platform.files.s3.bucket", () -> S3MockServer.BUCKET);
        registry.add("agent-platform.files.s3.access-key", () -> "test-access");
        registry.add("agent-platform.files.s3.secret-key", () -> "test-secret");
    }

    @Test
    void anUploadStraightToTheStoreIsConfirmedOnFirstUseAndDownloadsTheSameBytes() throws Exception {
        PlatformClient owner = platform();
        JsonNode ticket = body(owner.post("/api/v1/files/presign-upload").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("contentType", "text/plain", "contentLengthBytes", NOTES.length, "filename", "notes.txt")).exchange(), 201)
                .get("data");
        String uploadUrl = ticket.get("upload_url").asString();
        assertThat(uploadUrl).startsWith(S3MockServer.get().endpoint()).contains("X-Amz-Signature=");
        String file = ticket.get("file_id").asString();

        assertError(owner.get("/api/v1/files/presign-download?file_id={f}", file).exchange(), 404, "not_found", "");

        HttpRequest.Builder put = HttpRequest.newBuilder(URI.create(uploadUrl)).PUT(HttpRequest.BodyPublishers.ofByteArray(NOTES));
        ticket.get("headers").properties().forEach(header -> {
            if (!header.getKey().equalsIgnoreCase("Content-Length")) {
                put.header(header.getKey(), header.getValue().asString());
            }
        });
        HttpClient client = HttpClient.newHttpClient();
        assertThat(client.send(put.build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);

        JsonNode download = body(owner.get("/api/v1/files/presign-download?file_id={f}", file).exchange(), 200).get("data");
        assertThat(download.get("sha256").asString()).isEqualTo(sha256(NOTES));
        assertThat(download.get("size_bytes").asLong()).isEqualTo(NOTES.length);
        HttpResponse<byte[]> bytes = client.send(HttpRequest.newBuilder(URI.create(download.get("download_url").asString())).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(bytes.statusCode()).isEqualTo(200);
        assertThat(bytes.body()).isEqualTo(NOTES);

        String instance = owner.runningInstance("linux");
        String agent = owner.createAgent(instance, "s3-reader");
        JsonNode answer = body(owner.post("/api/v1/agents/{a}/invoke", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "summarize", "attachments", List.of(Map.of("file_id", file)))).exchange(), 200).get("data");
        assertThat(answer.get("text").asString()).contains("notes.txt (" + NOTES.length + " bytes)");
        assertThat(jdbc().queryForObject("SELECT store FROM file_object WHERE id = ?::uuid", String.class, file)).isEqualTo("s3");
    }

    @Test
    void aFileNeverUploadedCannotBeAttached() {
        PlatformClient owner = platform();
        String file = body(owner.post("/api/v1/files/presign-upload").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("contentType", "text/plain", "contentLengthBytes", 5)).exchange(), 201).at("/data/file_id").asString();
        String instance = owner.runningInstance("linux");
        String agent = owner.createAgent(instance, "s3-nothing");
        assertError(owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "x", "attachments", List.of(Map.of("file_id", file)))).exchange(), 400, "invalid_param",
                "attachments[0].file_id");
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}

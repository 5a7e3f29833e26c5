package org.agentplatform.api.file;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Files through the built-in object store: a presigned upload straight to the returned URL, its digest
 * recorded, a presigned download, the refusals of expired, tampered, over-length and repeated uploads,
 * owner scoping, and the two uses of an uploaded file: task attachments and skill installs.
 */
class FileHttpTest extends ApiTest {

    private static final byte[] REPORT = "quarterly numbers: up\n".getBytes(StandardCharsets.UTF_8);

    private PlatformClient owner;

    @BeforeEach
    void caller() {
        owner = platform();
    }

    @Test
    void anUploadThroughThePresignedUrlIsRecordedWithItsDigestAndCanBeDownloaded() {
        JsonNode ticket = presign("text/plain", REPORT.length, "report.txt");
        assertThat(ticket.get("method").asString()).isEqualTo("PUT");
        assertThat(ticket.at("/headers/Content-Type").asString()).isEqualTo("text/plain");
        assertThat(ticket.get("expires_at").asString()).isNotBlank();
        JsonNode stored = body(upload(ticket, "text/plain", REPORT), 200).get("data");
        assertThat(stored.get("sha256").asString()).isEqualTo(sha256(REPORT));
        assertThat(stored.get("size_bytes").asLong()).isEqualTo(REPORT.length);

        JsonNode download = body(owner.get("/api/v1/files/presign-download?file_id={f}", ticket.get("file_id").asString()).exchange(), 200)
                .get("data");
        assertThat(download.get("sha256").asString()).isEqualTo(sha256(REPORT));
        assertThat(download.get("filename").asString()).isEqualTo("report.txt");
        EntityExchangeResult<byte[]> bytes = http.get().uri(URI.create(download.get("download_url").asString())).exchange()
                .expectStatus().isOk()
                .expectHeader().contentType("text/plain")
                .expectBody().returnResult();
        assertThat(bytes.getResponseBody()).isEqualTo(REPORT);
        assertThat(bytes.getResponseHeaders().getETag()).isEqualTo("\"" + sha256(REPORT) + "\"");
    }

    @Test
    void presignRequestsAreChecked() {
        assertError(presignRequest(Map.of("contentLengthBytes", 10)), 400, "missing_param", "contentType");
        assertError(presignRequest(Map.of("contentType", "text/plain")), 400, "missing_param", "contentLengthBytes");
        assertError(presignRequest(Map.of("contentType", "not a type", "contentLengthBytes", 10)), 400, "invalid_param", "contentType");
        assertError(presignRequest(Map.of("contentType", "text/plain", "contentLengthBytes", 0)), 400, "invalid_param",
                "contentLengthBytes");
        assertError(presignRequest(Map.of("contentType", "text/plain", "contentLengthBytes", 200L * 1024 * 1024 * 1024)), 400,
                "invalid_param", "contentLengthBytes");
        assertError(owner.get("/api/v1/files/presign-download").exchange(), 400, "missing_param", "file_id");
        assertError(owner.get("/api/v1/files/presign-download?file_id=nope").exchange(), 404, "not_found", "");
    }

    @Test
    void aTamperedOrExpiredUrlIsRefused() {
        JsonNode ticket = presign("text/plain", REPORT.length, null);
        String url = ticket.get("upload_url").asString();
        assertError(http.put().uri(URI.create(url.replaceAll("signature=[0-9a-f]{4}", "signature=0000")))
                .contentType(MediaType.TEXT_PLAIN).bodyValue(REPORT).exchange(), 403, "forbidden", "");
        assertError(http.put().uri(URI.create(url.replaceAll("expires=(\\d+)", "expires=9$1")))
                .contentType(MediaType.TEXT_PLAIN).bodyValue(REPORT).exchange(), 403, "forbidden", "");
        clock.advance(Duration.ofMinutes(16));
        JsonNode expired = assertError(upload(ticket, "text/plain", REPORT), 403, "forbidden", "");
        assertThat(expired.get("message").asString()).contains("expired");
    }

    @Test
    void anUploadMustMatchTheLengthAndTypeItWasSignedFor() {
        JsonNode ticket = presign("text/plain", REPORT.length, null);
        assertError(upload(ticket, "text/plain", "x".repeat(REPORT.length + 1).getBytes(StandardCharsets.UTF_8)), 413,
                "payload_too_large", "");
        assertError(upload(ticket, "text/plain", "short".getBytes(StandardCharsets.UTF_8)), 400, "invalid_param", "Content-Length");
        assertError(upload(ticket, "application/json", REPORT), 400, "invalid_param", "Content-Type");
        assertError(owner.get("/api/v1/files/presign-download?file_id={f}", ticket.get("file_id").asString()).exchange(), 404, "not_found",
                "");
        body(upload(ticket, "text/plain", REPORT), 200);
        assertError(upload(ticket, "text/plain", REPORT), 409, "conflict", "");
    }

    @Test
    void filesAreTheirOwnersOnly() {
        String file = uploaded("text/plain", REPORT, "mine.txt");
        PlatformClient stranger = stranger();
        assertError(stranger.get("/api/v1/files/presign-download?file_id={f}", file).exchange(), 404, "not_found", "");
        String instance = owner.runningInstance("linux");
        String agent = owner.createAgent(instance, "reader");
        body(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "public")).exchange(), 200);
        assertError(stranger.post("/api/v1/agents/{a}/invoke", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "read it", "attachments", List.of(Map.of("file_id", file)))).exchange(), 400, "invalid_param",
                "attachments[0].file_id");
        JsonNode answer = body(owner.post("/api/v1/agents/{a}/invoke", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "read it", "attachments", List.of(Map.of("file_id", file)))).exchange(), 200).get("data");
        assertThat(answer.get("text").asString()).isEqualTo("echo: read it [attached: mine.txt (" + REPORT.length + " bytes)]");
        JsonNode history = owner.taskView(agent, answer.get("task_id").asString()).get("history");
        assertThat(history.at("/0/attachments/0/file_id").asString()).isEqualTo(file);
        assertThat(history.at("/0/attachments/0/sha256").asString()).isEqualTo(sha256(REPORT));
    }

    @Test
    void aSkillInstallsFromAnUploadedArchive() throws IOException {
        String instance = owner.runningInstance("linux");
        String agent = owner.createAgent(instance, "skilled");
        byte[] archive = zip(Map.of("review/SKILL.md", "# Review", "review/checklist.md", "- tests"));
        String file = uploaded("application/zip", archive, "review.zip");
        Map<String, Object> install = Map.of("name", "review", "file_id", file, "sha256", sha256(archive), "size_bytes", archive.length);
        assertThat(body(installSkill(agent, install), 200).get("ok").asBoolean()).isTrue();
        String list = owner.operationOf(instance, "skills/list", Map.of("agentId", agent));
        JsonNode skill = owner.awaitOperation(instance, list, "succeeded").at("/result/skills/0");
        assertThat(skill.get("name").asString()).isEqualTo("review");
        assertThat(skill.get("files").findValuesAsString("path")).containsExactly("SKILL.md", "checklist.md");

        assertError(installSkill(agent, Map.of("name", "review", "file_id", file, "sha256", "0".repeat(64), "size_bytes",
                archive.length)), 400, "invalid_param", "sha256");
        assertError(installSkill(agent, Map.of("name", "review", "file_id", file, "sha256", sha256(archive), "size_bytes", 3)), 400,
                "invalid_param", "size_bytes");
        String pending = presign("application/zip", 10, null).get("file_id").asString();
        assertError(installSkill(agent, Map.of("name", "review", "file_id", pending, "sha256", "0".repeat(64), "size_bytes", 10)), 400,
                "invalid_param", "file_id");
        byte[] escaping = zip(Map.of("SKILL.md", "# x", "../../etc/passwd", "root"));
        String bad = uploaded("application/zip", escaping, null);
        assertError(installSkill(agent, Map.of("name", "evil", "file_id", bad, "sha256", sha256(escaping), "size_bytes", escaping.length)),
                400, "invalid_body", "");
    }

    private WebTestClient.ResponseSpec installSkill(String agent, Map<String, Object> body) {
        return owner.post("/api/v1/agents/{a}/skills", agent).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private String uploaded(String contentType, byte[] bytes, String filename) {
        JsonNode ticket = presign(contentType, bytes.length, filename);
        body(upload(ticket, contentType, bytes), 200);
        return ticket.get("file_id").asString();
    }

    private JsonNode presign(String contentType, long length, String filename) {
        Map<String, Object> request = filename == null
                ? Map.of("contentType", contentType, "contentLengthBytes", length)
                : Map.of("contentType", contentType, "contentLengthBytes", length, "filename", filename);
        return body(presignRequest(request), 201).get("data");
    }

    private WebTestClient.ResponseSpec presignRequest(Map<String, Object> body) {
        return owner.post("/api/v1/files/presign-upload").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private WebTestClient.ResponseSpec upload(JsonNode ticket, String contentType, byte[] bytes) {
        return http.put().uri(URI.create(ticket.get("upload_url").asString())).contentType(MediaType.parseMediaType(contentType))
                .bodyValue(bytes).exchange();
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static byte[] zip(Map<String, String> files) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, String> file : new TreeMap<>(files).entrySet()) {
                zip.putNextEntry(new ZipEntry(file.getKey()));
                zip.write(file.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }
}

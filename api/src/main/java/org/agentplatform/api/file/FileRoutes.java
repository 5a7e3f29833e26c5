package org.agentplatform.api.file;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;
import java.time.Instant;
import java.util.Map;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.web.ApiResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Presigned URLs for files: the caller uploads the bytes straight to object storage, then names the
 * {@code file_id} in {@code attachments} (or a skill install); downloads get a short-lived URL too.
 */
@RestController
final class FileRoutes {

    private final FileStore files;

    FileRoutes(FileStore files) {
        this.files = files;
    }

    @PostMapping(path = "/api/v1/files/presign-upload", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<ApiResponse<UploadView>> presignUpload(@AuthenticationPrincipal Caller caller, @RequestBody UploadRequest request,
            ServerWebExchange exchange) {
        String contentType = Validate.text("contentType", request.contentType(), 1, 255);
        try {
            MediaType.parseMediaType(contentType);
        } catch (InvalidMediaTypeException malformed) {
            throw ApiException.invalidParam("contentType", "'contentType' must be a media type such as application/pdf");
        }
        long length = Validate.present("contentLengthBytes", request.contentLengthBytes());
        if (length < 1 || length > files.maxBytes()) {
            throw ApiException.invalidParam("contentLengthBytes", "'contentLengthBytes' must be between 1 and " + files.maxBytes());
        }
        String filename = request.filename() == null ? null : Validate.text("filename", request.filename(), 1, 255);
        return files.presignUpload(caller.ownerId(), contentType, length, filename, serviceUrl(exchange))
                .map(ticket -> ApiResponse.of(new UploadView(ticket.fileId(), ticket.url(), ticket.method(), ticket.headers(),
                        ticket.expiresAt(), contentType, length)));
    }

    @GetMapping("/api/v1/files/presign-download")
    Mono<ApiResponse<DownloadView>> presignDownload(@AuthenticationPrincipal Caller caller,
            @RequestParam(name = "file_id", required = false) String fileId, ServerWebExchange exchange) {
        String id = Validate.text("file_id", fileId, 1, 128);
        return files.presignDownload(caller.ownerId(), id, serviceUrl(exchange))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No uploaded file " + id)))
                .map(ticket -> ApiResponse.of(new DownloadView(ticket.file().fileId(), ticket.url(), ticket.expiresAt(),
                        ticket.file().contentType(), ticket.file().sizeBytes(), ticket.file().sha256(), ticket.file().filename())));
    }

    /** This service's base URL as the caller reached it (the built-in store's URLs point here). */
    static URI serviceUrl(ServerWebExchange exchange) {
        URI request = exchange.getRequest().getURI();
        return URI.create(request.getScheme() + "://" + request.getRawAuthority());
    }

    record UploadRequest(String contentType, Long contentLengthBytes, String filename) {
    }

    record UploadView(
            @JsonProperty("file_id") String fileId,
            @JsonProperty("upload_url") String uploadUrl,
            String method,
            Map<String, String> headers,
            @JsonProperty("expires_at") Instant expiresAt,
            @JsonProperty("content_type") String contentType,
            @JsonProperty("content_length_bytes") long contentLengthBytes) {
    }

    record DownloadView(
            @JsonProperty("file_id") String fileId,
            @JsonProperty("download_url") String downloadUrl,
            @JsonProperty("expires_at") Instant expiresAt,
            @JsonProperty("content_type") String contentType,
            @JsonProperty("size_bytes") long sizeBytes,
            String sha256,
            @Nullable String filename) {
    }
}

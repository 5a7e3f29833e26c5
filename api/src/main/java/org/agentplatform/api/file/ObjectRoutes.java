package org.agentplatform.api.file;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Map;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The built-in object store's endpoints (no bearer token: the presigned URL's signature is the
 * credential). Present only when that store is in use; an S3-compatible store serves its own URLs.
 */
@RestController
final class ObjectRoutes {

    static final String PATH = "/storage/v1/objects/{fileId}";

    private final SignedObjects objects;

    ObjectRoutes(SignedObjects objects) {
        this.objects = objects;
    }

    @PutMapping(PATH)
    @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
            description = "The file's bytes, with the Content-Type and length the presign named (its `headers`)",
            content = @Content(mediaType = "*/*", schema = @Schema(type = "string", format = "binary")))
    Mono<ApiResponse<Map<String, Object>>> upload(@PathVariable String fileId, @RequestParam(required = false) String expires,
            @RequestParam(required = false) String signature, ServerHttpRequest request) {
        MediaType contentType = request.getHeaders().getContentType();
        if (contentType == null) {
            throw ApiException.missingParam("Content-Type");
        }
        return objects.receive(fileId, expires, signature, contentType, request.getHeaders().getContentLength(), request.getBody())
                .map(file -> ApiResponse.of(Map.of("file_id", file.fileId(), "size_bytes", file.sizeBytes(), "sha256", file.sha256())));
    }

    @GetMapping(PATH)
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "200",
            description = "The object's bytes, with the Content-Type it was uploaded with, its length and its sha256 as ETag",
            content = @Content(mediaType = "*/*", schema = @Schema(type = "string", format = "binary")))
    Mono<ResponseEntity<Flux<DataBuffer>>> download(@PathVariable String fileId, @RequestParam(required = false) String expires,
            @RequestParam(required = false) String signature) {
        return objects.serve(fileId, expires, signature).map(download -> {
            StoredFile file = download.file();
            ResponseEntity.BodyBuilder response = ResponseEntity.ok()
                    .contentType(MediaType.parseMediaType(file.contentType()))
                    .contentLength(file.sizeBytes())
                    .eTag("\"" + file.sha256() + "\"");
            if (file.filename() != null) {
                response.header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(file.filename()).build().toString());
            }
            return response.body(download.body());
        });
    }
}

package org.agentplatform.api.agent;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.file.FileStore;
import org.agentplatform.api.openapi.OpenApiConfiguration;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.agentplatform.query.agent.AgentReads;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Skills, templates and models of an agent, carried out by its runtime: install a skill folder
 * ({@code AgentSkillInstall}), enable or disable it, uninstall it, apply a template, list models.
 */
@RestController
final class SkillRoutes {

    static final String MANIFEST = "SKILL.md";
    private static final int MAX_PATH = 512;

    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

    private final AgentOperations operations;
    private final AgentReads agents;
    private final FileStore files;

    SkillRoutes(AgentOperations operations, AgentReads agents, FileStore files) {
        this.operations = operations;
        this.agents = agents;
        this.files = files;
    }

    @PostMapping(path = "/api/v1/agents/{agentId}/skills", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "OK", useReturnTypeSchema = true)
    @ApiResponse(responseCode = "502", description = "Some runtime writes failed (the applied ones stay in effect)",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.HARNESS_ERROR)))
    Mono<ResponseEntity<Object>> install(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @RequestBody SkillInstall request, ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        String name = Validate.text("name", request.name(), 1, 128);
        if (request.files() != null && request.fileId() != null) {
            throw ApiException.invalidBody("Give exactly one of 'files' or 'file_id', not both", "file_id");
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("agentId", agent.toString());
        params.put("name", name);
        if (request.version() != null) {
            params.put("version", Validate.text("version", request.version(), 1, 64));
        }
        if (request.fileId() != null) {
            return fromFile(caller, request, params)
                    .flatMap(checked -> install(caller, exchange, agent, name, checked));
        }
        params.put("files", files(Validate.present("files", request.files())));
        return install(caller, exchange, agent, name, params);
    }

    private Mono<ResponseEntity<Object>> install(Caller caller, ServerWebExchange exchange, AgentId agent, String name,
            Map<String, Object> params) {
        return operations.write(caller, exchange, agent, RuntimeMethod.SKILLS_INSTALL, params, "skill:" + name)
                .map(operation -> AgentOperations.answer(operation, name, () -> new Installed(true, name)));
    }

    @PatchMapping(path = "/api/v1/agents/{agentId}/skills/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "OK", useReturnTypeSchema = true)
    @ApiResponse(responseCode = "502", description = "Some runtime writes failed (the applied ones stay in effect)",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.HARNESS_ERROR)))
    Mono<ResponseEntity<Object>> toggle(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String name, @RequestBody SkillToggle request, ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        String skill = skillName(name);
        boolean enabled = Validate.present("enabled", request.enabled());
        return operations.write(caller, exchange, agent, RuntimeMethod.SKILLS_UPDATE,
                        Map.of("agentId", agent.toString(), "name", skill, "enabled", enabled), "skill:" + skill)
                .map(operation -> AgentOperations.answer(operation, skill,
                        () -> new Toggled(true, skill, enabled)));
    }

    @DeleteMapping("/api/v1/agents/{agentId}/skills/{name}")
    @ApiResponse(responseCode = "200", description = "OK", useReturnTypeSchema = true)
    @ApiResponse(responseCode = "502", description = "Some runtime writes failed (the applied ones stay in effect)",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.HARNESS_ERROR)))
    Mono<ResponseEntity<Object>> uninstall(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String name, ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        String skill = skillName(name);
        return operations.write(caller, exchange, agent, RuntimeMethod.SKILLS_UNINSTALL,
                        Map.of("agentId", agent.toString(), "name", skill), "skill:" + skill)
                .map(operation -> AgentOperations.answer(operation, skill, () -> new Done(true)));
    }

    @PostMapping(path = "/api/v1/agents/{agentId}/template", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "OK", useReturnTypeSchema = true)
    @ApiResponse(responseCode = "502", description = "Some runtime writes failed (the applied ones stay in effect)",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.HARNESS_ERROR)))
    Mono<ResponseEntity<Object>> applyTemplate(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @RequestBody TemplateRequest request, ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        String template = Validate.text("template_id", request.templateId(), 1, 128);
        return operations.write(caller, exchange, agent, RuntimeMethod.AGENT_APPLY_TEMPLATE,
                        Map.of("agentId", agent.toString(), "templateId", template), "template")
                .map(operation -> AgentOperations.answer(operation, template, () -> new Done(true)));
    }

    @GetMapping("/api/v1/agents/{agentId}/models")
    @ApiResponse(responseCode = "200", description = "OK", useReturnTypeSchema = true)
    @ApiResponse(responseCode = "502", description = "Some runtime writes failed (the applied ones stay in effect)",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.HARNESS_ERROR)))
    Mono<ResponseEntity<Object>> models(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        return AgentAccess.readable(agents, agent, caller.ownerId())
                .flatMap(found -> operations.read(caller, exchange, found.instanceId(), found.ownerId(), RuntimeMethod.MODELS_LIST,
                        Map.of("agentId", agent.toString())))
                .map(operation -> AgentOperations.answer(operation, "models", operation::result));
    }

    /** The skill folder as a confirmed file of the caller, whose recorded sha256 and size the request must state. */
    private Mono<Map<String, Object>> fromFile(Caller caller, SkillInstall request, Map<String, Object> params) {
        String fileId = Validate.text("file_id", request.fileId(), 1, 128);
        String sha256 = Validate.present("sha256", request.sha256());
        if (!SHA256.matcher(sha256).matches()) {
            throw ApiException.invalidParam("sha256", "'sha256' must be 64 hex characters");
        }
        long size = Validate.present("size_bytes", request.sizeBytes());
        if (size < 1) {
            throw ApiException.invalidParam("size_bytes", "'size_bytes' must be positive");
        }
        return files.confirmed(caller.ownerId(), fileId)
                .switchIfEmpty(Mono.error(() -> ApiException.invalidParam("file_id", "No uploaded file " + fileId + " of this owner")))
                .map(file -> {
                    if (!file.sha256().equalsIgnoreCase(sha256)) {
                        throw ApiException.invalidParam("sha256", "'sha256' does not match the uploaded file's");
                    }
                    if (file.sizeBytes() != size) {
                        throw ApiException.invalidParam("size_bytes", "'size_bytes' does not match the uploaded file's "
                                + file.sizeBytes());
                    }
                    params.put("fileId", file.fileId());
                    params.put("sha256", file.sha256());
                    params.put("sizeBytes", file.sizeBytes());
                    return params;
                });
    }

    private static String skillName(String name) {
        if (name.isEmpty() || name.length() > PathIds.MAX_LENGTH) {
            throw ApiException.invalidParam("name", "'name' must be 1 to " + PathIds.MAX_LENGTH + " characters");
        }
        return name;
    }

    /** The inline folder, checked as the contract says: paths given and safe, one content each, {@code SKILL.md} present. */
    private static List<Map<String, Object>> files(List<SkillFile> files) {
        if (files.isEmpty()) {
            throw ApiException.invalidParam("files", "'files' must list the skill folder's files");
        }
        List<Map<String, Object>> checked = new ArrayList<>();
        Set<String> paths = new HashSet<>();
        for (int index = 0; index < files.size(); index++) {
            String at = "files[" + index + "]";
            SkillFile file = files.get(index);
            if (file == null) {
                throw ApiException.invalidBody("'" + at + "' must be an object", at);
            }
            String path = Validate.present(at + ".path", file.path());
            if (path.isBlank() || path.length() > MAX_PATH || path.startsWith("/") || path.contains("\\")
                    || List.of(path.split("/")).contains("..") || !paths.add(path)) {
                throw ApiException.invalidParam(at + ".path", "'" + at + ".path' must be a unique relative path inside the folder");
            }
            if (file.content() != null && file.contentB64() != null) {
                throw ApiException.invalidParam(at + ".content_b64", "Give '" + at + ".content' or '" + at + ".content_b64', not both");
            }
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("path", path);
            if (file.contentB64() != null) {
                try {
                    Base64.getDecoder().decode(file.contentB64());
                } catch (IllegalArgumentException malformed) {
                    throw ApiException.invalidParam(at + ".content_b64", "'" + at + ".content_b64' is not base64");
                }
                item.put("content_b64", file.contentB64());
            } else {
                item.put("content", file.content() == null ? "" : file.content());
            }
            checked.add(item);
        }
        if (!paths.contains(MANIFEST)) {
            throw ApiException.invalidParam("files", "'files' must contain " + MANIFEST);
        }
        return checked;
    }

    /** {@code AgentSkillInstall}: no other properties are allowed (the API's JSON is strict). */
    record SkillInstall(
            String name,
            List<SkillFile> files,
            @JsonProperty("file_id") String fileId,
            String sha256,
            @JsonProperty("size_bytes") Long sizeBytes,
            String version) {
    }

    record SkillFile(String path, String content, @JsonProperty("content_b64") String contentB64) {
    }

    record SkillToggle(Boolean enabled) {
    }

    record Installed(boolean ok, String name) {
    }

    record Toggled(boolean ok, String name, boolean enabled) {
    }

    record Done(boolean ok) {
    }

    record TemplateRequest(@JsonProperty("template_id") String templateId) {
    }
}

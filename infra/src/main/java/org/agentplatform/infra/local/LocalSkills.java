package org.agentplatform.infra.local;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.agentplatform.command.operation.RuntimeCall;
import org.agentplatform.command.operation.RuntimeOutcome.HarnessOperation;
import org.agentplatform.command.operation.RuntimeOutcome;
import org.agentplatform.infra.adapter.file.SkillArchives;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code skills/*}: skill folders of an agent. A folder must contain {@code SKILL.md}; installing again
 * replaces its files. With the partial-write fault the last file fails and the others stay written.
 */
final class LocalSkills {

    static final String MANIFEST = "SKILL.md";
    private static final int MAX_NAME = 128;
    private static final int MAX_PATH = 512;

    private final JdbcTemplate jdbc;
    private final LocalAgents agents;
    private final SkillArchives archives;
    private final Clock clock;

    LocalSkills(JdbcTemplate jdbc, LocalAgents agents, SkillArchives archives, Clock clock) {
        this.jdbc = jdbc;
        this.agents = agents;
        this.archives = archives;
        this.clock = clock;
    }

    Object list(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        UUID agent = params.id("agentId");
        agents.require(instance, agent);
        List<Map<String, Object>> skills = jdbc.query("SELECT name FROM local_skill WHERE instance_id = ? AND agent_id = ? ORDER BY name",
                (row, index) -> view(instance, agent, row.getString("name")), instance, agent);
        return Map.of("agentId", agent.toString(), "skills", skills);
    }

    RuntimeOutcome install(RuntimeCall call, Params params, boolean partialWrite) {
        UUID instance = call.instanceId().value();
        UUID agent = params.id("agentId");
        agents.require(instance, agent);
        String name = params.text("name", MAX_NAME);
        List<SkillFile> files = params.optionalText("fileId") != null
                ? SkillArchive.unpack(read(params.id("fileId"), params.text("sha256", 64), params.optionalInteger("sizeBytes")))
                : files(params.optionalList("files"));
        if (files.stream().noneMatch(file -> file.path().equals(MANIFEST))) {
            throw RuntimeRefusal.invalidParams("The skill folder must contain " + MANIFEST);
        }
        String version = params.optionalText("version") == null ? "1" : params.optionalText("version");
        OffsetDateTime now = now();
        jdbc.update("INSERT INTO local_skill (instance_id, agent_id, name, version, enabled, installed_at, updated_at)"
                        + " VALUES (?, ?, ?, ?, TRUE, ?, ?) ON CONFLICT (instance_id, agent_id, name)"
                        + " DO UPDATE SET version = EXCLUDED.version, updated_at = EXCLUDED.updated_at",
                instance, agent, name, version, now, now);
        jdbc.update("DELETE FROM local_skill_file WHERE instance_id = ? AND agent_id = ? AND skill = ?", instance, agent, name);
        List<HarnessOperation> operations = new ArrayList<>();
        for (int index = 0; index < files.size(); index++) {
            SkillFile file = files.get(index);
            if (partialWrite && index == files.size() - 1) {
                operations.add(new HarnessOperation("file", file.path(), "failed", "WRITE_FAILED",
                        "The runtime could not write " + file.path()));
            } else {
                write(instance, agent, name, file);
                operations.add(new HarnessOperation("file", file.path(), "succeeded", "", ""));
            }
        }
        if (partialWrite) {
            return new RuntimeOutcome.PartiallyApplied("HARNESS_PARTIAL_WRITE",
                    "1 of " + files.size() + " files of skill " + name + " could not be written; the others are in effect",
                    operations);
        }
        return new RuntimeOutcome.Committed(view(instance, agent, name));
    }

    Object update(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        UUID agent = params.id("agentId");
        agents.require(instance, agent);
        String name = params.text("name", MAX_NAME);
        requireInstalled(instance, agent, name);
        if (params.optionalList("files") != null) {
            List<SkillFile> files = files(params.optionalList("files"));
            if (files.stream().noneMatch(file -> file.path().equals(MANIFEST))) {
                throw RuntimeRefusal.invalidParams("'files' must contain " + MANIFEST);
            }
            jdbc.update("DELETE FROM local_skill_file WHERE instance_id = ? AND agent_id = ? AND skill = ?", instance, agent, name);
            files.forEach(file -> write(instance, agent, name, file));
        }
        jdbc.update("UPDATE local_skill SET enabled = COALESCE(?, enabled), version = COALESCE(?, version), updated_at = ?"
                        + " WHERE instance_id = ? AND agent_id = ? AND name = ?",
                params.optionalBoolean("enabled"), params.optionalText("version"), now(), instance, agent, name);
        return view(instance, agent, name);
    }

    Object uninstall(RuntimeCall call, Params params) {
        UUID instance = call.instanceId().value();
        UUID agent = params.id("agentId");
        agents.require(instance, agent);
        String name = params.text("name", MAX_NAME);
        requireInstalled(instance, agent, name);
        jdbc.update("DELETE FROM local_skill_file WHERE instance_id = ? AND agent_id = ? AND skill = ?", instance, agent, name);
        jdbc.update("DELETE FROM local_skill WHERE instance_id = ? AND agent_id = ? AND name = ?", instance, agent, name);
        return Map.of("agentId", agent.toString(), "name", name, "uninstalled", true);
    }

    /** The archive's bytes, checked against the digest the install named (the file is immutable; this proves it). */
    private byte[] read(UUID fileId, String sha256, Integer sizeBytes) {
        if (sizeBytes == null || sizeBytes < 1 || sizeBytes > SkillArchive.MAX_BYTES) {
            throw RuntimeRefusal.invalidParams("'sizeBytes' must be between 1 and " + SkillArchive.MAX_BYTES);
        }
        byte[] bytes;
        try (InputStream in = archives.open(fileId)) {
            bytes = in.readNBytes(SkillArchive.MAX_BYTES + 1);
        } catch (IOException failure) {
            throw RuntimeRefusal.invalidParams("The skill archive " + fileId + " cannot be read: " + failure.getMessage());
        }
        if (bytes.length != sizeBytes || !sha256(bytes).equalsIgnoreCase(sha256)) {
            throw RuntimeRefusal.invalidParams("The skill archive " + fileId + " does not match its sha256 and size");
        }
        return bytes;
    }

    private void requireInstalled(UUID instance, UUID agent, String name) {
        Integer found = jdbc.queryForObject("SELECT count(*) FROM local_skill WHERE instance_id = ? AND agent_id = ? AND name = ?",
                Integer.class, instance, agent, name);
        if (found == null || found == 0) {
            throw RuntimeRefusal.notFound("SKILL_NOT_FOUND", "Skill", name);
        }
    }

    private void write(UUID instance, UUID agent, String skill, SkillFile file) {
        jdbc.update("INSERT INTO local_skill_file (instance_id, agent_id, skill, path, content, sha256) VALUES (?, ?, ?, ?, ?, ?)",
                instance, agent, skill, file.path(), file.content(), sha256(file.content()));
    }

    private Map<String, Object> view(UUID instance, UUID agent, String name) {
        Map<String, Object> skill = jdbc.queryForObject("SELECT name, version, enabled FROM local_skill"
                + " WHERE instance_id = ? AND agent_id = ? AND name = ?", (row, index) -> {
                    Map<String, Object> view = new LinkedHashMap<>();
                    view.put("agentId", agent.toString());
                    view.put("name", row.getString("name"));
                    view.put("version", row.getString("version"));
                    view.put("enabled", row.getBoolean("enabled"));
                    return view;
                }, instance, agent, name);
        skill.put("files", jdbc.query("SELECT path, length(content) AS size, sha256 FROM local_skill_file"
                        + " WHERE instance_id = ? AND agent_id = ? AND skill = ? ORDER BY path",
                (row, index) -> Map.of("path", row.getString("path"), "sizeBytes", row.getLong("size"), "sha256", row.getString("sha256")),
                instance, agent, name));
        return skill;
    }

    /** The folder's files, checked: relative paths without {@code ..}, unique, each with {@code content} or {@code content_b64}. */
    static List<SkillFile> files(List<?> items) {
        if (items == null || items.isEmpty()) {
            throw RuntimeRefusal.invalidParams("'files' must list the skill folder's files");
        }
        List<SkillFile> files = new ArrayList<>();
        Set<String> paths = new HashSet<>();
        for (int index = 0; index < items.size(); index++) {
            if (!(items.get(index) instanceof Map<?, ?> item)) {
                throw RuntimeRefusal.invalidParams("'files[" + index + "]' must be an object");
            }
            String path = item.get("path") instanceof String text ? text : null;
            if (path == null || path.isBlank() || path.length() > MAX_PATH || path.startsWith("/") || path.contains("\\")
                    || List.of(path.split("/")).contains("..")) {
                throw RuntimeRefusal.invalidParams("'files[" + index + "].path' must be a relative path inside the skill folder");
            }
            if (!paths.add(path)) {
                throw RuntimeRefusal.invalidParams("'files[" + index + "].path' repeats " + path);
            }
            files.add(new SkillFile(path, content(item, index)));
        }
        return files;
    }

    private static byte[] content(Map<?, ?> item, int index) {
        Object text = item.get("content");
        Object base64 = item.get("content_b64");
        if (text != null && base64 != null) {
            throw RuntimeRefusal.invalidParams("'files[" + index + "]' gives both content and content_b64");
        }
        if (base64 != null) {
            try {
                return Base64.getDecoder().decode((String) base64);
            } catch (IllegalArgumentException | ClassCastException malformed) {
                throw RuntimeRefusal.invalidParams("'files[" + index + "].content_b64' is not base64");
            }
        }
        return text == null ? new byte[0] : text.toString().getBytes(StandardCharsets.UTF_8);
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    record SkillFile(String path, byte[] content) {
    }
}

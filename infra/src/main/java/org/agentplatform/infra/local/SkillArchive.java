package org.agentplatform.infra.local;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.agentplatform.infra.local.LocalSkills.SkillFile;

/**
 * A skill folder uploaded as a file: a zip archive of the folder (its files at the root, or inside one
 * top-level folder), or a lone {@code SKILL.md}. Paths must stay inside the folder; sizes are bounded
 * (no archive expands past {@value #MAX_BYTES} bytes or {@value #MAX_FILES} files).
 */
final class SkillArchive {

    static final int MAX_BYTES = 64 * 1024 * 1024;
    static final int MAX_FILES = 1000;
    private static final byte[] ZIP_MAGIC = {'P', 'K', 3, 4};

    private SkillArchive() {
    }

    static List<SkillFile> unpack(byte[] bytes) {
        if (!isZip(bytes)) {
            return List.of(new SkillFile(LocalSkills.MANIFEST, bytes));
        }
        List<SkillFile> files = new ArrayList<>();
        Set<String> paths = new HashSet<>();
        long expanded = 0;
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(bytes))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                if (entry.isDirectory()) {
                    continue;
                }
                String path = entry.getName();
                if (path.startsWith("/") || path.contains("\\") || List.of(path.split("/")).contains("..") || !paths.add(path)) {
                    throw RuntimeRefusal.invalidParams("The skill archive has an unsafe or repeated path: " + path);
                }
                byte[] content = zip.readNBytes((int) Math.min(Integer.MAX_VALUE, MAX_BYTES - expanded + 1L));
                expanded += content.length;
                if (expanded > MAX_BYTES || files.size() >= MAX_FILES) {
                    throw RuntimeRefusal.invalidParams("The skill archive expands past " + MAX_BYTES + " bytes or " + MAX_FILES + " files");
                }
                files.add(new SkillFile(path, content));
            }
        } catch (IOException malformed) {
            throw RuntimeRefusal.invalidParams("The skill archive is not a readable zip file: " + malformed.getMessage());
        }
        return withoutTopFolder(files);
    }

    /** {@code folder/SKILL.md, folder/a.txt} -> {@code SKILL.md, a.txt}, when every file is in that one folder. */
    private static List<SkillFile> withoutTopFolder(List<SkillFile> files) {
        if (files.isEmpty() || files.stream().anyMatch(file -> file.path().equals(LocalSkills.MANIFEST))) {
            return files;
        }
        String first = files.getFirst().path();
        int slash = first.indexOf('/');
        if (slash < 1) {
            return files;
        }
        String prefix = first.substring(0, slash + 1);
        if (files.stream().allMatch(file -> file.path().startsWith(prefix) && file.path().length() > prefix.length())) {
            return files.stream().map(file -> new SkillFile(file.path().substring(prefix.length()), file.content())).toList();
        }
        return files;
    }

    private static boolean isZip(byte[] bytes) {
        if (bytes.length < ZIP_MAGIC.length) {
            return false;
        }
        for (int index = 0; index < ZIP_MAGIC.length; index++) {
            if (bytes[index] != ZIP_MAGIC[index]) {
                return false;
            }
        }
        return true;
    }
}

package org.agentplatform.infra.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.agentplatform.infra.local.LocalSkills.SkillFile;
import org.junit.jupiter.api.Test;

class SkillArchiveTest {

    @Test
    void aZipOfTheFolderIsUnpacked() throws IOException {
        assertThat(SkillArchive.unpack(zip(Map.of("SKILL.md", "# Skill", "scripts/run.sh", "echo hi"))))
                .extracting(SkillFile::path).containsExactlyInAnyOrder("SKILL.md", "scripts/run.sh");
    }

    @Test
    void aSingleTopFolderIsStripped() throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("review/SKILL.md", "# Review");
        files.put("review/notes.txt", "n");
        assertThat(SkillArchive.unpack(zip(files))).extracting(SkillFile::path).containsExactly("SKILL.md", "notes.txt");
    }

    @Test
    void aFileThatIsNoZipIsTheManifestItself() {
        assertThat(SkillArchive.unpack("# Just a manifest".getBytes(StandardCharsets.UTF_8)))
                .extracting(SkillFile::path).containsExactly("SKILL.md");
    }

    @Test
    void pathsMustStayInsideTheFolder() throws IOException {
        byte[] escaping = zip(Map.of("SKILL.md", "x", "../outside", "y"));
        assertThatThrownBy(() -> SkillArchive.unpack(escaping)).isInstanceOf(RuntimeRefusal.class).hasMessageContaining("unsafe");
    }

    private static byte[] zip(Map<String, String> files) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, String> file : files.entrySet()) {
                zip.putNextEntry(new ZipEntry(file.getKey()));
                zip.write(file.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }
}

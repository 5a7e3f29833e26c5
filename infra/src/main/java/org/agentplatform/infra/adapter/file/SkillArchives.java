package org.agentplatform.infra.adapter.file;

import java.io.IOException;
import java.io.InputStream;
import java.util.UUID;

/** Where a skill installed by {@code file_id} comes from: the bytes of that confirmed file. */
@FunctionalInterface
public interface SkillArchives {

    InputStream open(UUID fileId) throws IOException;
}

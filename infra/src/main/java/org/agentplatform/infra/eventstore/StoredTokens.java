package org.agentplatform.infra.eventstore;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.agentplatform.kernel.FrameworkReplacement;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the processors' stored tokens ({@code token_entry}, JSON) say about their progress, read from the database so it
 * holds whichever node processes a segment.
 */
@FrameworkReplacement("Axon: the stored form of a GapAwareTrackingToken in token_entry")
public final class StoredTokens {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StoredTokens() {
    }

    /** A tracking token's position: the highest global index its segment has seen (0 before the first event). */
    public static long position(byte[] token) {
        return token == null ? 0 : position(read(token));
    }

    private static long position(JsonNode token) {
        JsonNode index = token.findValue("index");
        return index == null || index.isNull() ? 0 : index.asLong();
    }

    private static JsonNode read(byte[] token) {
        return JSON.readTree(new String(token, StandardCharsets.UTF_8));
    }

    /**
     * How far every segment of {@code processor} has got: the lowest position of its segments, and the global indexes
     * below it that some segment has not seen yet (its gaps). Nothing is passed when the processor has no token.
     */
    public static Progress progress(JdbcTemplate jdbc, String processor) {
        return progress(jdbc.queryForList("SELECT token FROM token_entry WHERE processor_name = ?", byte[].class, processor));
    }

    /** As above, from the tokens of a processor's segments as stored (a null one: a segment that has seen nothing). */
    static Progress progress(List<byte[]> tokens) {
        long lowest = tokens.isEmpty() ? 0 : Long.MAX_VALUE;
        Set<Long> gaps = new HashSet<>();
        for (byte[] stored : tokens) {
            if (stored == null) {
                return new Progress(0, Set.of());
            }
            JsonNode token = read(stored);
            lowest = Math.min(lowest, position(token));
            JsonNode segmentGaps = token.findValue("gaps");
            if (segmentGaps != null) {
                segmentGaps.forEach(gap -> gaps.add(gap.asLong()));
            }
        }
        return new Progress(lowest, Set.copyOf(gaps));
    }

    /** Every segment has seen the global indexes up to {@code position}, except {@code gaps}. */
    public record Progress(long position, Set<Long> gaps) {

        public boolean passed(long globalIndex) {
            return globalIndex <= position && !gaps.contains(globalIndex);
        }
    }
}

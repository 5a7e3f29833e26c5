package org.agentplatform.infra.eventstore;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import org.agentplatform.kernel.FrameworkReplacement;
import org.axonframework.common.DateTimeUtils;

/**
 * The event store's timestamps, read back. Axon writes them as text in one form ({@link DateTimeUtils#formatInstant}:
 * {@code 2026-11-25T20:33:01.123Z}) and parses them with a general ISO-8601 parser, which builds a map of fields and
 * resolves them for every event read: about a quarter of a lagging processor's reading of the store (profiled). This
 * reads that one form with a few digit loops and leaves anything else (another offset, another precision, a year
 * beyond four digits) to Axon's parser, so the instants and the errors are Axon's.
 */
@FrameworkReplacement("Axon: DateTimeUtils.parseInstant on the stored time_stamp")
final class StoredTimestamps {

    private static final int LENGTH = "2026-11-25T20:33:01.123Z".length();
    private static final long SECONDS_PER_DAY = 86_400;

    private StoredTimestamps() {
    }

    static Instant parse(String text) {
        Instant instant = text.length() == LENGTH ? inAxonsForm(text) : null;
        return instant != null ? instant : DateTimeUtils.parseInstant(text);
    }

    /** The instant of {@code text} in Axon's form, or null when it is not in that form or names no date. */
    private static Instant inAxonsForm(String text) {
        if (text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T' || text.charAt(13) != ':'
                || text.charAt(16) != ':' || text.charAt(19) != '.' || text.charAt(23) != 'Z') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        int millis = digits(text, 20, 3);
        if ((year | month | day | hour | minute | second | millis) < 0 || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        try {
            long days = LocalDate.of(year, month, day).toEpochDay();
            return Instant.ofEpochSecond(days * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second, millis * 1_000_000L);
        } catch (DateTimeException noSuchDate) {
            return null;
        }
    }

    /** The number the {@code count} decimal digits at {@code from} spell, or -1 if one of them is not a digit. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            int digit = text.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}

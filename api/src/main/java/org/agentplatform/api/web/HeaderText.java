package org.agentplatform.api.web;

import org.agentplatform.kernel.FrameworkReplacement;

/**
 * The header names and values Spring Security's firewall lets through, decided without its regular
 * expressions: every code point assigned in Unicode and none a control character, except a tab in values.
 * The firewall asks on every header read, several times per request; the regular expressions with Unicode
 * classes were ~7 % of the event loop's samples under load.
 */
@FrameworkReplacement("Spring Security: StrictServerWebExchangeFirewall's header checks")
public final class HeaderText {

    private HeaderText() {
    }

    /** As {@code StrictServerWebExchangeFirewall.ALLOWED_HEADER_NAMES}. */
    public static boolean allowedName(String name) {
        return name == null || allowed(name, false);
    }

    /** As {@code StrictServerWebExchangeFirewall.ALLOWED_HEADER_VALUES}. */
    public static boolean allowedValue(String value) {
        return value == null || allowed(value, true);
    }

    private static boolean allowed(String text, boolean tabAllowed) {
        int index = 0;
        while (index < text.length()) {
            char unit = text.charAt(index);
            if (unit >= 0x20 && unit < 0x7f) { // printable ASCII: assigned, not a control
                index++;
                continue;
            }
            int codePoint = text.codePointAt(index);
            int type = Character.getType(codePoint);
            if (type == Character.UNASSIGNED || type == Character.CONTROL && !(tabAllowed && codePoint == '\t')) {
                return false;
            }
            index += Character.charCount(codePoint);
        }
        return true;
    }
}

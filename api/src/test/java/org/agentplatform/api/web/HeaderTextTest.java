package org.agentplatform.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.web.server.firewall.StrictServerWebExchangeFirewall;

class HeaderTextTest {

    @Test
    void decidesEveryCodePointAsTheFirewallsRegularExpressions() {
        List<String> differing = new ArrayList<>();
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            String text = "a" + Character.toString(codePoint) + "b";
            if (HeaderText.allowedName(text) != StrictServerWebExchangeFirewall.ALLOWED_HEADER_NAMES.test(text)
                    || HeaderText.allowedValue(text) != StrictServerWebExchangeFirewall.ALLOWED_HEADER_VALUES.test(text)) {
                differing.add(Integer.toHexString(codePoint));
            }
        }
        assertThat(differing).isEmpty();
    }

    @Test
    void decidesTypicalHeadersAndEdgeCasesAlike() {
        for (String text : new String[] {null, "", "Authorization", "Bearer sk_abc.DEF-123", "application/json; charset=utf-8",
                "tab\there", "new\nline", "nul\u0000", "del\u007f", "c1\u0085", "caf\u00e9", "\ud83d\ude00 emoji",
                "lone \ud800 high", "lone \udc00 low", "\u0378 unassigned", "\u00a0nbsp"}) {
            assertThat(HeaderText.allowedName(text)).as("name %s", text)
                    .isEqualTo(StrictServerWebExchangeFirewall.ALLOWED_HEADER_NAMES.test(text));
            assertThat(HeaderText.allowedValue(text)).as("value %s", text)
                    .isEqualTo(StrictServerWebExchangeFirewall.ALLOWED_HEADER_VALUES.test(text));
        }
        assertThat(HeaderText.allowedValue("tab\there")).isTrue();
        assertThat(HeaderText.allowedName("tab\there")).isFalse();
        assertThat(HeaderText.allowedValue("nul\u0000")).isFalse();
    }
}

package org.agentplatform.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class SsrfGuardTest {

    @Test
    void internalAddressesAreRecognised() throws Exception {
        for (String internal : List.of("127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
                "::1", "fe80::1", "fd00:ec2::254", "::ffff:10.0.0.1", "224.0.0.1", "255.255.255.255")) {
            assertThat(SsrfGuard.isInternal(InetAddress.getByName(internal))).as(internal).isTrue();
        }
        for (String external : List.of("93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8")) {
            assertThat(SsrfGuard.isInternal(InetAddress.getByName(external))).as(external).isFalse();
        }
    }

    @Test
    void anInternalAddressIsRefusedUnlessAllowListed() throws Exception {
        SsrfGuard guard = new SsrfGuard(List.of("127.0.0.1/32", "10.20.0.0/16"));
        assertThatCode(() -> guard.check("localhost", InetAddress.getByName("127.0.0.1"))).doesNotThrowAnyException();
        assertThatCode(() -> guard.check("svc", InetAddress.getByName("10.20.5.5"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> guard.check("svc", InetAddress.getByName("10.21.0.1"))).isInstanceOf(SsrfGuard.Refused.class)
                .hasMessageContaining("10.21.0.1");
        assertThatThrownBy(() -> guard.check("other", InetAddress.getByName("127.0.0.2"))).isInstanceOf(SsrfGuard.Refused.class);
        assertThatCode(() -> guard.check("example.com", InetAddress.getByName("93.184.216.34"))).doesNotThrowAnyException();
    }

    @Test
    void ipLiteralsAreCheckedWithoutAnyLookup() {
        SsrfGuard guard = new SsrfGuard(List.of("127.0.0.1/32"));
        assertThatThrownBy(() -> guard.checkLiteral("10.255.255.1")).isInstanceOf(SsrfGuard.Refused.class);
        assertThatThrownBy(() -> guard.checkLiteral("[::1]")).isInstanceOf(SsrfGuard.Refused.class);
        assertThatThrownBy(() -> guard.checkLiteral("127.0.0.2")).isInstanceOf(SsrfGuard.Refused.class);
        assertThatCode(() -> guard.checkLiteral("127.0.0.1")).doesNotThrowAnyException();
        assertThatCode(() -> guard.checkLiteral("example.com")).doesNotThrowAnyException();
        assertThat(SsrfGuard.literal("example.com")).isEmpty();
    }

    @Test
    void ipv6ThatEmbedsIpv4IsJudgedByItsIpv4() throws Exception {
        for (String internal : List.of("::127.0.0.1", "::7f00:1", "0:0:0:0:0:0:10.0.0.1", "::ffff:0:10.0.0.1", "64:ff9b::169.254.169.254",
                "2002:7f00:1::", "2002:a00:1:1::1", "2001:0:7f00:1::1", "2001:0:808:808::80ff:fffe", "::", "64:ff9b:1::1")) {
            assertThat(SsrfGuard.isInternal(InetAddress.getByName(internal))).as(internal).isTrue();
        }
        for (String external : List.of("64:ff9b::8.8.8.8", "2002:808:808::1", "2001:0:808:808::f7f7:f7f7")) {
            assertThat(SsrfGuard.isInternal(InetAddress.getByName(external))).as(external).isFalse();
        }
        SsrfGuard guard = new SsrfGuard(List.of("127.0.0.1/32"));
        assertThatCode(() -> guard.checkLiteral("[::127.0.0.1]")).as("judged as the allow-listed 127.0.0.1").doesNotThrowAnyException();
        assertThatThrownBy(() -> guard.checkLiteral("[::127.0.0.2]")).isInstanceOf(SsrfGuard.Refused.class).hasMessageContaining("127.0.0.2");
    }

    @Test
    void everyIpv4SpellingIsALiteral() throws Exception {
        for (String spelling : List.of("127.0.0.2", "2130706434", "127.2", "127.0.2", "0x7f000002", "0x7f.0.0.2", "0177.0.0.2",
                "0177.0.0.02", "127.000.000.002")) {
            assertThat(SsrfGuard.literal(spelling)).as(spelling).contains(InetAddress.getByName("127.0.0.2"));
        }
        SsrfGuard guard = new SsrfGuard(List.of());
        assertThatThrownBy(() -> guard.checkLiteral("256.1.1.1")).isInstanceOf(SsrfGuard.Refused.class).hasMessageContaining("not a valid");
        assertThatThrownBy(() -> guard.checkLiteral("0x")).isInstanceOf(SsrfGuard.Refused.class);
        assertThat(SsrfGuard.literal("8.8.8.8")).contains(InetAddress.getByName("8.8.8.8"));
        assertThat(SsrfGuard.literal("hooks.example.com")).isEmpty();
        assertThat(SsrfGuard.literal("1e100.net")).isEmpty();
    }
}

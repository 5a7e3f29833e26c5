package org.agentplatform.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Refuses callbacks to addresses inside our network: loopback, private, link-local (cloud metadata among
 * them), carrier-grade NAT, unique-local, unspecified, multicast and reserved ranges, unless an allow-listed
 * network ({@code 127.0.0.1/32}, {@code 10.0.0.0/8}...) contains the address.
 */
public final class SsrfGuard {

    private static final List<Network> BLOCKED = List.of(
            Network.parse("0.0.0.0/8"), Network.parse("100.64.0.0/10"), Network.parse("192.0.0.0/24"), Network.parse("198.18.0.0/15"),
            Network.parse("240.0.0.0/4"), Network.parse("fc00::/7"), Network.parse("64:ff9b:1::/48"), Network.parse("100::/64"),
            Network.parse("2001:db8::/32"), Network.parse("2001:2::/48"));

    /** A host made only of numbers (decimal, hex, octal) and dots: an IPv4 literal in some spelling, never a name. */
    private static final Pattern NUMERIC_IPV4 = Pattern.compile("(0[xX][0-9a-fA-F]*|[0-9]+)(\\.(0[xX][0-9a-fA-F]*|[0-9]+)){0,3}");

    private final List<Network> allowed;

    public SsrfGuard(List<String> allowedNetworks) {
        this.allowed = allowedNetworks.stream().filter(network -> !network.isBlank()).map(Network::parse).toList();
    }

    /** Throws {@link Refused} unless {@code address} (what {@code host} resolved to) may be called. */
    public void check(String host, InetAddress address) {
        for (InetAddress judged : judged(address)) {
            if (isInternal(judged) && allowed.stream().noneMatch(network -> network.contains(judged))) {
                throw new Refused("The webhook host " + host + " resolves to " + address.getHostAddress()
                        + (judged.equals(address) ? "" : " (IPv4 " + judged.getHostAddress() + ")")
                        + ", an internal address; refused (not on the allow-list)");
            }
        }
    }

    /**
     * Checks a URL host that is an IP literal ({@code 10.0.0.1}, {@code [::1]}): such a host is never
     * resolved, so it must be checked before connecting. Host names are checked as they resolve.
     */
    public void checkLiteral(String host) {
        literal(host).ifPresent(address -> check(host, address));
    }

    /**
     * The address an IP-literal host names, read the way resolvers and browsers read it: IPv6 in brackets, and
     * IPv4 in every {@code inet_aton} spelling (dotted decimal, a single number {@code 2130706433}, short forms
     * {@code 127.1}, hex {@code 0x7f000001}, octal {@code 0177.0.0.1}), so that no spelling of an internal address
     * passes as a name.
     */
    static Optional<InetAddress> literal(String host) {
        if (host == null) {
            return Optional.empty();
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            if (bare.contains(":")) {
                return Optional.of(InetAddress.getByName(bare));
            }
            if (NUMERIC_IPV4.matcher(bare).matches()) {
                return Optional.of(InetAddress.getByAddress(inetAton(bare)));
            }
        } catch (UnknownHostException | NumberFormatException notALiteral) {
            throw new Refused("The webhook host " + host + " is not a valid address; refused");
        }
        return Optional.empty();
    }

    /** {@code inet_aton}: one to four parts, each decimal, hex ({@code 0x}) or octal (leading 0); the last fills the rest. */
    private static byte[] inetAton(String text) {
        String[] parts = text.split("\\.");
        long[] values = new long[parts.length];
        for (int index = 0; index < parts.length; index++) {
            String part = parts[index];
            values[index] = part.startsWith("0x") || part.startsWith("0X") ? Long.parseLong(part.substring(2), 16)
                    : part.length() > 1 && part.startsWith("0") ? Long.parseLong(part.substring(1), 8) : Long.parseLong(part);
        }
        long address = 0;
        for (int index = 0; index < parts.length - 1; index++) {
            if (values[index] > 0xff) {
                throw new NumberFormatException(text);
            }
            address |= values[index] << (24 - 8 * index);
        }
        long last = values[parts.length - 1];
        if (last >= 1L << (8 * (4 - (parts.length - 1)))) {
            throw new NumberFormatException(text);
        }
        address |= last;
        return new byte[] {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
    }

    /** Whether the address, or an IPv4 address it embeds, is inside our network. */
    static boolean isInternal(InetAddress address) {
        for (InetAddress plain : judged(address)) {
            if (plain.isLoopbackAddress() || plain.isSiteLocalAddress() || plain.isLinkLocalAddress() || plain.isAnyLocalAddress()
                    || plain.isMulticastAddress() || BLOCKED.stream().anyMatch(network -> network.contains(plain))
                    || (plain instanceof Inet4Address && plain.getHostAddress().equals("255.255.255.255"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * What an address is judged as: an IPv6 address that embeds IPv4 is judged as the IPv4 address(es) it
     * carries, since that is where the packets end up (IPv4-compatible {@code ::a.b.c.d}, IPv4-mapped
     * {@code ::ffff:a.b.c.d}, IPv4-translated {@code ::ffff:0:a.b.c.d}, NAT64 {@code 64:ff9b::a.b.c.d}, 6to4
     * {@code 2002:AABB:CCDD::}, and Teredo {@code 2001:0:SSSS:SSSS::} with its server and its obfuscated client);
     * any other address as itself.
     */
    static List<InetAddress> judged(InetAddress address) {
        byte[] b = address.getAddress();
        if (!(address instanceof Inet6Address) || b.length != 16) {
            return List.of(address);
        }
        if (zero(b, 0, 10) && ((b[10] == 0 && b[11] == 0) || (b[10] == (byte) 0xff && b[11] == (byte) 0xff))) {
            return List.of(ipv4(b, 12, false));
        }
        if (zero(b, 0, 8) && b[8] == (byte) 0xff && b[9] == (byte) 0xff && b[10] == 0 && b[11] == 0) {
            return List.of(ipv4(b, 12, false));
        }
        if (b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b && zero(b, 4, 12)) {
            return List.of(ipv4(b, 12, false));
        }
        if (b[0] == 0x20 && b[1] == 0x02) {
            return List.of(ipv4(b, 2, false));
        }
        if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) {
            return List.of(ipv4(b, 4, false), ipv4(b, 12, true));
        }
        return List.of(address);
    }

    private static boolean zero(byte[] bytes, int from, int to) {
        for (int index = from; index < to; index++) {
            if (bytes[index] != 0) {
                return false;
            }
        }
        return true;
    }

    private static InetAddress ipv4(byte[] bytes, int from, boolean inverted) {
        byte[] v4 = new byte[4];
        for (int index = 0; index < 4; index++) {
            v4[index] = (byte) (inverted ? ~bytes[from + index] : bytes[from + index]);
        }
        try {
            return InetAddress.getByAddress(v4);
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** Why a callback was not sent: it goes into the delivery row's {@code last_error}. */
    public static final class Refused extends RuntimeException {

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** A CIDR network. */
    record Network(byte[] prefix, int bits) {

        static Network parse(String cidr) {
            String[] parts = cidr.strip().split("/");
            try {
                byte[] address = InetAddress.getByName(parts[0]).getAddress();
                int bits = parts.length > 1 ? Integer.parseInt(parts[1]) : address.length * 8;
                if (bits < 0 || bits > address.length * 8) {
                    throw new IllegalArgumentException("Bad prefix length in " + cidr);
                }
                return new Network(address, bits);
            } catch (UnknownHostException | NumberFormatException malformed) {
                throw new IllegalArgumentException("Not a network: " + cidr, malformed);
            }
        }

        boolean contains(InetAddress address) {
            byte[] candidate = address.getAddress();
            if (candidate.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((candidate[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
